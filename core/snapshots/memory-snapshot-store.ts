/**
 * @module memory-snapshot-store
 * Snapshots in one host's memory: records in a map, each dropped at its expiry and never before,
 * their annotations held once per content (snapshot-marks.ts), and their results pinned in the
 * host's byte budget, where they count like any result but are never evicted. When a new record
 * or its pins would pass what the host keeps, the new snapshot is refused (507): no older one is
 * dropped to make room, so every snapshot taken answers until its time-to-live.
 */
import { assertPinnable } from '../cache/pin-room.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import { createHostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { snapshotTaken } from '../history/room-changes.ts';
import type { LogEntry, LogWriter } from '../history/room-log-store.ts';
import { MarkPool, splitDocument, type SplitDocument } from './snapshot-marks.ts';
import type { ResultPins, SnapshotRecord, SnapshotStore } from './snapshot-store.ts';
import { roomsOf } from './snapshot-rooms.ts';

/** Snapshots one host keeps, and the characters of their records by default (annotations counted once per content). */
const MAX_SNAPSHOTS = 10_000;
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** How often expired records and pins are dropped. */
const SWEEP_MS = 60_000;

/** A record as kept: its document split (its marks pooled), and when it goes. */
type Kept = Omit<SnapshotRecord, 'json'> & { doc: SplitDocument; until: number };

/** Characters a record takes besides its marks: its document's head and tail, and the rooms it names. */
function frameOf(doc: SplitDocument, rooms: string[] | undefined): number {
  return doc.head.length + doc.tail.length + (rooms?.reduce((n, room) => n + room.length, 0) ?? 0);
}

export class MemorySnapshotStore implements SnapshotStore {
  #records = new Map<string, Kept>();
  #marks = new MarkPool();
  /** Characters of the records' heads and tails (their marks are in the pool). */
  #frames = 0;
  #log: LogWriter;
  #maxBytes: number;
  #maxSnapshots: number;
  #timer = setInterval(() => {
    const now = Date.now();
    for (const [id, record] of this.#records) if (record.until <= now) this.#drop(id);
  }, SWEEP_MS).unref();

  /** `log`: the rooms' logs in memory; `maxBytes`: the most characters the records may take; `maxSnapshots`: the most records. */
  constructor(log: LogWriter, maxBytes = MAX_RECORD_BYTES, maxSnapshots = MAX_SNAPSHOTS) {
    this.#log = log;
    this.#maxBytes = maxBytes;
    this.#maxSnapshots = maxSnapshots;
  }

  /** Characters the records take: each annotation's text once, plus each record's own parts. */
  get bytes(): number {
    return this.#marks.bytes + this.#frames;
  }

  #drop(id: string): void {
    const record = this.#records.get(id);
    if (!record) return;
    this.#records.delete(id);
    this.#marks.give(record.doc.marks);
    this.#frames -= frameOf(record.doc, record.rooms);
  }

  async put(id: string, record: SnapshotRecord, ttlMs: number, takenOf?: string): Promise<LogEntry | null> {
    const doc = splitDocument(record.json);
    const replacing = this.#records.has(id);
    const added = this.#marks.added(doc.marks) + frameOf(doc, record.rooms);
    if (!replacing && (this.#records.size >= this.#maxSnapshots || this.bytes + added > this.#maxBytes)) {
      const what = this.#records.size >= this.#maxSnapshots ? `more than ${this.#maxSnapshots} snapshots` : 'another snapshot';
      throw createHostError('SPC_ERR_HOST_CANNOT_KEEP', what, String(added), String(this.bytes), `${this.#maxBytes} (snapshot records)`);
    }
    const marks = this.#marks.take(doc.marks);
    const kept: Kept = { doc: { ...doc, marks }, created: record.created, pins: record.pins, ...roomsOf(record), until: Date.now() + ttlMs };
    this.#drop(id);
    this.#records.set(id, kept);
    this.#frames += frameOf(doc, kept.rooms);
    return takenOf === undefined ? null : this.#log.appendNow(takenOf, snapshotTaken(id));
  }

  async get(id: string): Promise<SnapshotRecord | null> {
    const record = this.#records.get(id);
    if (!record || record.until <= Date.now()) return null;
    const { head, marks, tail } = record.doc;
    return { json: head + marks.join(',') + tail, created: record.created, pins: record.pins, ...roomsOf(record) };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#records.clear();
    this.#marks.clear();
    this.#frames = 0;
  }
}

export class MemoryResultPins implements ResultPins {
  #budget: ResultBudget<StoredResult>;
  /** Pinned results by snapshot, oldest first. */
  #pinned = new Map<string, { results: StoredResult[]; until: number }>();
  #timer = setInterval(() => {
    const now = Date.now();
    for (const [id, pinned] of this.#pinned) if (pinned.until <= now) this.#unpin(id);
  }, SWEEP_MS).unref();

  constructor(budget: ResultBudget<StoredResult>) {
    this.#budget = budget;
  }

  /** Refused with 507 when the results would take pins past the budget (nothing else unpinned). */
  async pin(snapshotId: string, results: StoredResult[], ttlMs: number): Promise<unknown> {
    assertPinnable(this.#budget, this.#budget.unpinnedBytes(results), 'the layers of another snapshot');
    const earlier = this.#pinned.get(snapshotId);
    for (const result of results) this.#budget.pin(result, this.#holder(snapshotId));
    // Taken again: the earlier pins go only once the new ones hold (they may be the same results).
    if (earlier) for (const result of earlier.results) if (!results.includes(result)) this.#budget.release(result, this.#holder(snapshotId));
    this.#pinned.set(snapshotId, { results, until: Date.now() + ttlMs });
    return null;
  }

  /** Lets go of a snapshot's pins at once (its record could not be kept). */
  release(snapshotId: string): void {
    this.#unpin(snapshotId);
  }

  async intact(snapshotId: string): Promise<boolean> {
    const pinned = this.#pinned.get(snapshotId);
    return pinned !== undefined && pinned.results.every((result) => this.#budget.holds(result));
  }

  #holder(snapshotId: string): string {
    return `snapshot:${snapshotId}`;
  }

  #unpin(snapshotId: string): void {
    const pinned = this.#pinned.get(snapshotId);
    if (!pinned) return;
    this.#pinned.delete(snapshotId);
    for (const result of pinned.results) this.#budget.release(result, this.#holder(snapshotId));
  }

  close(): void {
    clearInterval(this.#timer);
    for (const id of [...this.#pinned.keys()]) this.#unpin(id);
  }
}
