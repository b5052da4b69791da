/**
 * @module disk-room-log
 * A lone host's room logs in its data folder (core/durable/): each entry under `[room, seq]` in
 * the store's `log` database (durable/disk-keys.ts) (LMDB keeps array keys in order, so a room's entries lie together,
 * oldest first), and each room's head (its last seq and ts) in `loghead`. The disk stores append
 * an entry inside the very transaction of the change it records ({@link DiskRoomLog.appendNow}),
 * so the two are on disk together, flushed once, before the change is answered, and a write
 * that fails (a full disk) leaves neither. Seqs go on after a restart; entries past the
 * time-to-live are not answered, and go as the room is written.
 */
import { asBinary, type Binary } from 'lmdb';
import type { DataStore } from '../durable/data-store.ts';
import { DISK, type DiskKey } from '../durable/disk-keys.ts';
import { inTurns, takeInTurns } from '../memory/turn-batches.ts';
import { entryOf, pageLimit, pageOf, type LogChange, type LogEntry, type LogPage, type LogWriter, type RoomLogStore } from './room-log-store.ts';

interface Head {
  seq: number;
  ts: number;
  /** The ts of the room's oldest entry kept (absent in a folder written before it was kept: its entries are then looked at once). */
  kept?: number;
}

/** A room's next entries, made and encoded ahead of the write that appends them, for the log as it stood then. */
export interface PreparedEntries {
  roomId: string;
  /** The room's last seq when they were made: they follow it. */
  after: number;
  changes: readonly LogChange[];
  entries: LogEntry[];
  /** Each entry as the log database stores it. */
  bytes: Uint8Array[];
}

/** The log database as bytes are written to it: lmdb-js's encoder of it, and a put of bytes it made. */
interface EncodedLog {
  encoder: { encode(value: unknown): Uint8Array };
  put(key: DiskKey, value: Binary): Promise<boolean>;
}

/** Entries read between two turns of the event loop. */
const READ_BATCH = 500;

/** Past every seq a room can reach: the end of a room's key range. */
const LAST = Number.MAX_SAFE_INTEGER;

export class DiskRoomLog implements RoomLogStore, LogWriter {
  #store: Pick<DataStore, 'db' | 'write' | 'writing'>;
  #ttlMs: number;
  #now: () => number;

  /** `store`: the host's data store, or the same folder as a command (`vitrine users`) opens it. */
  constructor(store: Pick<DataStore, 'db' | 'write' | 'writing'>, ttlSeconds: number, now: () => number = Date.now) {
    this.#store = store;
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  #log() {
    return this.#store.db<LogEntry>(DISK.log.name);
  }

  #heads() {
    return this.#store.db<Head>(DISK.logHeads.name);
  }

  async append(roomId: string, change: LogChange): Promise<LogEntry> {
    return this.#store.write(() => this.appendNow(roomId, change));
  }

  /** Appends within the write under way (`DataStore.write`): the change and its entry commit together. */
  appendNow(roomId: string, change: LogChange): LogEntry {
    if (!this.#store.writing) throw new Error(`room '${roomId}': a log entry is appended only inside the write of its change`);
    const log = this.#log();
    const heads = this.#heads();
    const head = heads.get(roomId) ?? { seq: 0, ts: 0 };
    const seq = head.seq + 1;
    const ts = Math.max(head.ts, this.#now());
    const entry = entryOf(seq, ts, change);
    void log.put(DISK.log.entry(roomId, seq), entry);
    void heads.put(roomId, { seq, ts, kept: this.#expire(roomId, head, ts) });
    return entry;
  }

  /**
   * `changes` made into the room's next entries and encoded as the log stores them, an entry per
   * turn of the event loop: a large import's entries carry its 100,000 marks, and encoding them
   * inside the write that shows them held every other request for a third of a second.
   */
  async prepare(roomId: string, changes: readonly LogChange[]): Promise<PreparedEntries> {
    const head = this.#heads().get(roomId) ?? { seq: 0, ts: 0 };
    const ts = Math.max(head.ts, this.#now());
    const entries = changes.map((change, i) => entryOf(head.seq + 1 + i, ts, change));
    const log = this.#log() as unknown as EncodedLog;
    // Copied: the encoder writes into a buffer it shares with the store's own writes, which start over in it.
    const bytes = await inTurns(entries, 1, ([entry]) => Buffer.from(log.encoder.encode(entry)));
    return { roomId, after: head.seq, changes, entries, bytes };
  }

  /**
   * Appends prepared entries within the write under way: their bytes as they are when the
   * room's log has not moved since, else made again from their changes (another write came between).
   */
  appendPrepared(prepared: PreparedEntries): LogEntry[] {
    const { roomId, after, entries } = prepared;
    const head = this.#heads().get(roomId) ?? { seq: 0, ts: 0 };
    const last = entries.at(-1);
    if (!this.#store.writing || head.seq !== after || !last) return prepared.changes.map((change) => this.appendNow(roomId, change));
    const log = this.#log() as unknown as EncodedLog;
    prepared.bytes.forEach((bytes, i) => void log.put(DISK.log.entry(roomId, after + 1 + i), asBinary(bytes)));
    void this.#heads().put(roomId, { seq: last.seq, ts: last.ts, kept: this.#expire(roomId, head, last.ts) });
    return entries;
  }

  /**
   * Removes the room's entries past the time-to-live (oldest first, so the first kept one ends
   * it) and says the ts of the oldest left, `ts` (the entry being added) when none is. The head
   * knows the oldest kept, so a write whose room has nothing to expire reads no entry at all.
   */
  #expire(roomId: string, head: Head, ts: number): number {
    const oldest = this.#now() - this.#ttlMs;
    if (head.kept !== undefined && head.kept >= oldest) return head.kept;
    const log = this.#log();
    for (const { key, value } of log.getRange(DISK.log.entries(roomId, 0, head.seq + 1))) {
      if (value.ts >= oldest) return value.ts;
      void log.remove(key);
    }
    return ts;
  }

  async read(roomId: string, since: number, limit: number): Promise<LogPage> {
    const head = this.#heads().get(roomId);
    if (!head) return pageOf([], since, 1, 0);
    const n = pageLimit(limit);
    const oldest = this.#now() - this.#ttlMs;
    // Read as the store held it when the range began, a batch per turn: a page of 10,000 entries is tens of milliseconds of decoding.
    const range = this.#log()
      .getRange({ ...DISK.log.entries(roomId, Math.max(0, since) + 1, LAST), snapshot: true })
      .map(({ value }) => value)
      .filter((entry) => entry.ts >= oldest);
    const entries = await takeInTurns(range, READ_BATCH, (taken) => taken.length > n);
    return pageOf(entries, since, n, head.seq);
  }

  async lastSeq(roomId: string): Promise<number> {
    return this.#heads().get(roomId)?.seq ?? 0;
  }

  close(): void {}
}
