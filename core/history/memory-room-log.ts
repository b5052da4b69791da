/**
 * @module memory-room-log
 * A lone host's room logs in its memory: one array per room in seq order, entries past the
 * time-to-live dropped from the front as the room is read or written, and bounded in rooms
 * (the least recently written going first) and in entries per room (the oldest going first),
 * so a busy host's memory stays bounded whatever its rooms do. The memory stores append in the
 * same turn as they make a change, so no reader sees one without the other.
 */
import { entryOf, pageLimit, pageOf, type LogChange, type LogEntry, type LogPage, type LogWriter, type RoomLogStore } from './room-log-store.ts';

/** Rooms whose logs one host keeps. */
const MAX_ROOMS = 10_000;
/** Entries one room's log keeps in memory. */
const MAX_ENTRIES = 200_000;

interface RoomLog {
  entries: LogEntry[];
  seq: number;
  ts: number;
}

/** The index of the first entry with a seq above `since` (entries are in seq order). */
function firstAfter(entries: LogEntry[], since: number): number {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.seq <= since) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class MemoryRoomLog implements RoomLogStore, LogWriter {
  #rooms = new Map<string, RoomLog>();
  #ttlMs: number;
  #now: () => number;

  constructor(ttlSeconds: number, now: () => number = Date.now) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  #expire(log: RoomLog): void {
    const oldest = this.#now() - this.#ttlMs;
    let drop = 0;
    while (drop < log.entries.length && log.entries[drop]!.ts < oldest) drop++;
    if (log.entries.length - drop > MAX_ENTRIES) drop = log.entries.length - MAX_ENTRIES;
    if (drop > 0) log.entries.splice(0, drop);
  }

  async append(roomId: string, change: LogChange): Promise<LogEntry> {
    return this.appendNow(roomId, change);
  }

  appendNow(roomId: string, change: LogChange): LogEntry {
    const log = this.#rooms.get(roomId) ?? { entries: [], seq: 0, ts: 0 };
    this.#rooms.delete(roomId);
    this.#rooms.set(roomId, log);
    while (this.#rooms.size > MAX_ROOMS) this.#rooms.delete(this.#rooms.keys().next().value!);
    log.seq += 1;
    log.ts = Math.max(log.ts, this.#now());
    const entry = entryOf(log.seq, log.ts, change);
    log.entries.push(entry);
    this.#expire(log);
    return entry;
  }

  async read(roomId: string, since: number, limit: number): Promise<LogPage> {
    const log = this.#rooms.get(roomId);
    if (!log) return pageOf([], since, 1, 0);
    this.#expire(log);
    const n = pageLimit(limit);
    const from = firstAfter(log.entries, since);
    return pageOf(log.entries.slice(from, from + n + 1), since, n, log.seq);
  }

  async lastSeq(roomId: string): Promise<number> {
    return this.#rooms.get(roomId)?.seq ?? 0;
  }

  close(): void {
    this.#rooms.clear();
  }
}
