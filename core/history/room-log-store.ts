/**
 * @module room-log-store
 * Where each room's log is kept, one interface for every home side by side: a host's memory
 * (memory-room-log.ts), a lone host's data folder (disk-room-log.ts) and a Redis service
 * (redis-room-log.ts), all run by one conformance suite. A change of a room is logged by the
 * store that makes it, in the same write (room-changes.ts says what each is logged as); an
 * append of its own is for what changes no store (a replay started). An append gets the next `seq` of
 * its room (1, 2, 3, … with no gap and no repeat, whichever host appends) and a `ts` that
 * never goes back within the room, so a replay's offsets are never negative. Entries older
 * than the log's time-to-live go.
 */
import type { RoomLogPage } from '../wire/room-types.ts';

/** The kinds of change a room's log records. */
export type LogType = 'entry' | 'view' | 'scene' | 'layer' | 'annotation' | 'snapshot' | 'access' | 'replay' | 'conversation' | 'labels.edit';

/** One change as a writer gives it: its kind and its fields (what the room's event carries). */
export interface LogChange {
  type: LogType;
  /** Who made it (people/request-user.ts), or `host` for what the host did of itself. */
  by: string;
  /** The change's own fields, spread into the entry beside `seq`, `ts`, `by` and `type`. */
  change: Record<string, unknown>;
}

/** One entry as the log answers it. */
export interface LogEntry extends Record<string, unknown> {
  seq: number;
  /** Host milliseconds since the epoch. */
  ts: number;
  by: string;
  type: LogType;
}

/** A page of a room's log: the entries after `since`, and where the next page starts. */
export interface LogPage extends Omit<RoomLogPage, 'entries'> {
  entries: LogEntry[];
}

/** At most this many entries in one page. */
export const MAX_LOG_PAGE = 10_000;

export interface RoomLogStore {
  /** Appends `change` to the room's log; answers the entry as stored. */
  append(roomId: string, change: LogChange): Promise<LogEntry>;
  /** The entries with a seq above `since`, oldest first, at most `limit` (capped at MAX_LOG_PAGE). */
  read(roomId: string, since: number, limit: number): Promise<LogPage>;
  /** The room's newest seq (0 when it has none): a page read at the same one holds the same entries. */
  lastSeq(roomId: string): Promise<number>;
  close(): void;
}

/**
 * A log as the room stores of its home write it: inside the write that makes the change (the
 * data folder's transaction, or the same turn of a host's memory), so the change and its entry
 * are kept together or not at all.
 */
export interface LogWriter {
  /** Appends `change` to the room's log within the write under way; answers the entry as it will be stored. */
  appendNow(roomId: string, change: LogChange): LogEntry;
}

/** The stored form of an entry: its fields in one object, `seq`, `ts`, `by`, `type` first. */
export function entryOf(seq: number, ts: number, change: LogChange): LogEntry {
  const { seq: _s, ts: _t, by: _b, type: _y, ...fields } = change.change;
  return { seq, ts, by: change.by, type: change.type, ...fields };
}

/** `limit` as a page may hold it: 1 to MAX_LOG_PAGE. */
export function pageLimit(limit: number): number {
  return Math.max(1, Math.min(MAX_LOG_PAGE, Math.floor(limit)));
}

/** A page of `entries` (already those after `since`, at most `limit` + 1 of them). */
export function pageOf(entries: LogEntry[], since: number, limit: number, lastSeq: number): LogPage {
  const page = entries.slice(0, limit);
  return { entries: page, next_since: page.at(-1)?.seq ?? Math.max(0, since), more: entries.length > limit, last_seq: lastSeq };
}
