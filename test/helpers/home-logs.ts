/**
 * @module home-logs
 * The room log each home's stores append to, for the store suites: a store is made over its
 * home's log (every change's entry appended in the write of the change), and a case reads the
 * room's entries back to see that each change made is there once and a refused one is not.
 */
import type { LogEntry, RoomLogStore } from '../../core/history/room-log-store.ts';

/** Every entry of the room's log, oldest first. */
export async function entriesOf(log: RoomLogStore, roomId: string): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  let since = 0;
  for (;;) {
    const page = await log.read(roomId, since, 10_000);
    entries.push(...page.entries);
    if (!page.more) return entries;
    since = page.next_since;
  }
}
