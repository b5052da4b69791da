/**
 * @module disk-room-log
 * A lone host's room logs in its data folder (core/durable/): each entry under `[room, seq]` in
 * the store's `log` database (LMDB keeps array keys in order, so a room's entries lie together,
 * oldest first), and each room's head (its last seq and ts) in `loghead`, both written in one
 * transaction that is on disk before the change it records is answered. Seqs go on after a
 * restart; entries past the time-to-live are not answered, and go as the room is written.
 */
import type { DataStore } from '../durable/data-store.ts';
import { takeInTurns } from '../memory/turn-batches.ts';
import { entryOf, pageLimit, pageOf, type LogChange, type LogEntry, type LogPage, type RoomLogStore } from './room-log-store.ts';

interface Head {
  seq: number;
  ts: number;
}

/** Entries read between two turns of the event loop. */
const READ_BATCH = 500;

/** Past every seq a room can reach: the end of a room's key range. */
const LAST = Number.MAX_SAFE_INTEGER;

export class DiskRoomLog implements RoomLogStore {
  #store: DataStore;
  #ttlMs: number;
  #now: () => number;

  constructor(store: DataStore, ttlSeconds: number, now: () => number = Date.now) {
    this.#store = store;
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  #log() {
    return this.#store.db<LogEntry>('log');
  }

  #heads() {
    return this.#store.db<Head>('loghead');
  }

  async append(roomId: string, change: LogChange): Promise<LogEntry> {
    const log = this.#log();
    const heads = this.#heads();
    return this.#store.write(() => {
      const head = heads.get(roomId) ?? { seq: 0, ts: 0 };
      const seq = head.seq + 1;
      const ts = Math.max(head.ts, this.#now());
      const entry = entryOf(seq, ts, change);
      void log.put([roomId, seq], entry);
      void heads.put(roomId, { seq, ts });
      // The room's entries past the time-to-live go as it is written (oldest first, so the first kept one ends it).
      const oldest = this.#now() - this.#ttlMs;
      for (const { key, value } of log.getRange({ start: [roomId, 0], end: [roomId, seq] })) {
        if (value.ts >= oldest) break;
        void log.remove(key);
      }
      return entry;
    });
  }

  async read(roomId: string, since: number, limit: number): Promise<LogPage> {
    const head = this.#heads().get(roomId);
    if (!head) return pageOf([], since, 1, 0);
    const n = pageLimit(limit);
    const oldest = this.#now() - this.#ttlMs;
    // Read as the store held it when the range began, a batch per turn: a page of 10,000 entries is tens of milliseconds of decoding.
    const range = this.#log()
      .getRange({ start: [roomId, Math.max(0, since) + 1], end: [roomId, LAST], snapshot: true })
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
