/**
 * @module disk-snapshot-store
 * Snapshots in a lone host's data folder: each record in the `snapshots` database with its
 * expiry (dropped by a sweep, and read as gone once past it), written with its entry in the
 * log of the room it was taken of in one transaction, and each result it pins a blob
 * of the folder's DiskBlobStore kept at least as long (blob-result-pins.ts), so a restarted host restores it with
 * every byte its layers showed.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { snapshotTaken } from '../history/room-changes.ts';
import type { LogEntry, LogWriter } from '../history/room-log-store.ts';
import type { SnapshotRecord, SnapshotStore } from './snapshot-store.ts';
import { roomsOf } from './snapshot-rooms.ts';

const SWEEP_MS = 60_000;

type Stored = SnapshotRecord & { until: number };

export class DiskSnapshotStore implements SnapshotStore {
  #store: DataStore;
  #log: LogWriter;
  #timer = setInterval(() => void this.#sweep().catch(() => {}), SWEEP_MS).unref();

  /** `log`: the rooms' logs in the same store. */
  constructor(store: DataStore, log: LogWriter) {
    this.#store = store;
    this.#log = log;
  }

  get #db() {
    return this.#store.db<Stored>(DISK.snapshots.name);
  }

  async put(id: string, record: SnapshotRecord, ttlMs: number, takenOf?: string): Promise<LogEntry | null> {
    const stored: Stored = { json: record.json, created: record.created, pins: record.pins, ...roomsOf(record), until: Date.now() + ttlMs };
    return this.#store.write(() => {
      void this.#db.put(id, stored);
      return takenOf === undefined ? null : this.#log.appendNow(takenOf, snapshotTaken(id));
    });
  }

  async get(id: string): Promise<SnapshotRecord | null> {
    const stored = this.#db.get(id);
    if (!stored || stored.until <= Date.now()) return null;
    return { json: stored.json, created: stored.created, pins: stored.pins, ...roomsOf(stored) };
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    const gone: string[] = [];
    for (const { key, value } of this.#db.getRange()) if (value.until <= now) gone.push(key as string);
    if (gone.length > 0) await this.#store.write(() => gone.forEach((id) => this.#db.remove(id)));
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
