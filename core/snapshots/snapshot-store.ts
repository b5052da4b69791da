/**
 * @module snapshot-store
 * Where snapshots of rooms are kept, and how their bytes are kept with them. A snapshot is a
 * record (its canonical JSON, by its SHA-256) that lives `--snapshot-ttl`; the results its
 * layers show are pinned for as long, so no byte budget or blob store lets them go whatever the
 * rooms do next. Three homes behind these interfaces: a host's memory (memory-snapshot-store.ts:
 * the record in a map, the results pinned in the host's byte budget), a lone host's data folder
 * (disk-snapshot-store.ts: each result a blob of the folder's), and a Redis service
 * (redis-snapshot-store.ts: the record in Redis, each result's blob kept in the service's blob
 * store), which every host reads and which outlives them. A store that cannot keep a new record
 * refuses it (a catalogued 507) rather than drop an older one.
 */
import type { LogEntry } from '../history/room-log-store.ts';
import type { FileResult } from '../results/file-result.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** A snapshot as stored: its document's canonical JSON, and what its pins need to be checked. */
export interface SnapshotRecord {
  json: string;
  /** Milliseconds since the epoch. */
  created: number;
  /** Whatever the pins gave back (blob references on a Redis service). */
  pins: unknown;
  /**
   * The rooms it was taken of (one room's content taken of another room is the same snapshot):
   * whoever may read one of them may read it. Absent: no room's, so anyone may (see snapshot-rooms.ts).
   */
  rooms?: string[];
}

export interface SnapshotStore {
  /**
   * Keeps `record` under `id` for `ttlMs` (a record already there lives on for `ttlMs` from now).
   * Taken of room `takenOf`, it is appended to that room's log in the same write: answers that
   * entry (null for a snapshot taken in from a session file, which is no room's change).
   */
  put(id: string, record: SnapshotRecord, ttlMs: number, takenOf?: string): Promise<LogEntry | null>;
  /** The record, or null when unknown or expired. */
  get(id: string): Promise<SnapshotRecord | null>;
  close(): void;
}

export interface ResultPins {
  /** Keeps `results` for `ttlMs` whatever else happens; gives what `intact` needs to check them. */
  pin(snapshotId: string, results: StoredResult[], ttlMs: number): Promise<unknown>;
  /**
   * As `pin`, for results lying in a file (a session file taken in), taken one at a time so no
   * more than one is ever in memory, or none where the store takes bytes from a file. Pins
   * that keep results in memory leave this out: their results are read in and pinned.
   */
  pinFiles?(snapshotId: string, results: FileResult[], ttlMs: number): Promise<unknown>;
  /** Whether every result pinned for the snapshot is still there. */
  intact(snapshotId: string, pins: unknown): Promise<boolean>;
  /** Lets go at once of what `pin` kept for a snapshot whose record was refused (where pins cost the host). */
  release?(snapshotId: string): void;
  close(): void;
}
