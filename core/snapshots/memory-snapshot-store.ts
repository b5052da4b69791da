/**
 * @module memory-snapshot-store
 * Snapshots in one host's memory: records in a map (each dropped at its expiry, the oldest past
 * MAX_SNAPSHOTS or MAX_RECORD_BYTES), and their results pinned in the host's byte budget, where they count like any
 * result but are never evicted. Pinned bytes stay under a share of the budget: past it, the
 * oldest snapshots' pins go first (those snapshots then answer 410), so pins never starve the
 * rooms' own results.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultPins, SnapshotRecord, SnapshotStore } from './snapshot-store.ts';

/** Snapshots one host keeps, and the bytes of their records (a room's annotations may be many). */
const MAX_SNAPSHOTS = 10_000;
const MAX_RECORD_BYTES = 64 * 1024 * 1024;
/** How often expired records and pins are dropped. */
const SWEEP_MS = 60_000;

function sweeper(sweep: () => void): NodeJS.Timeout {
  const timer = setInterval(sweep, SWEEP_MS);
  timer.unref();
  return timer;
}

export class MemorySnapshotStore implements SnapshotStore {
  #records = new Map<string, SnapshotRecord & { until: number }>();
  #bytes = 0;
  #timer = sweeper(() => {
    const now = Date.now();
    for (const [id, record] of this.#records) if (record.until <= now) this.#drop(id);
  });

  #drop(id: string): void {
    const record = this.#records.get(id);
    if (!record) return;
    this.#records.delete(id);
    this.#bytes -= record.json.length;
  }

  async put(id: string, record: SnapshotRecord, ttlMs: number): Promise<void> {
    this.#drop(id);
    this.#records.set(id, { ...record, until: Date.now() + ttlMs });
    this.#bytes += record.json.length;
    // The oldest go first past either bound (they then answer 404, as expired ones do).
    while (this.#records.size > MAX_SNAPSHOTS || (this.#bytes > MAX_RECORD_BYTES && this.#records.size > 1)) this.#drop(this.#records.keys().next().value!);
  }

  async get(id: string): Promise<SnapshotRecord | null> {
    const record = this.#records.get(id);
    if (!record || record.until <= Date.now()) return null;
    return { json: record.json, created: record.created, pins: record.pins };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#records.clear();
    this.#bytes = 0;
  }
}

export class MemoryResultPins implements ResultPins {
  #budget: ResultBudget<StoredResult>;
  #maxBytes: number;
  /** Pinned results by snapshot, oldest first. */
  #pinned = new Map<string, { results: StoredResult[]; until: number }>();
  #timer = sweeper(() => {
    const now = Date.now();
    for (const [id, pinned] of this.#pinned) if (pinned.until <= now) this.#unpin(id);
  });

  /** `maxBytes`: the most bytes pins may hold (a share of the budget). */
  constructor(budget: ResultBudget<StoredResult>, maxBytes: number) {
    this.#budget = budget;
    this.#maxBytes = maxBytes;
  }

  async pin(snapshotId: string, results: StoredResult[], ttlMs: number): Promise<unknown> {
    this.#unpin(snapshotId);
    for (const result of results) this.#budget.pin(result, this.#holder(snapshotId));
    this.#pinned.set(snapshotId, { results, until: Date.now() + ttlMs });
    for (const id of this.#pinned.keys()) {
      if (this.#budget.pinnedBytes <= this.#maxBytes || id === snapshotId) break;
      this.#unpin(id);
    }
    return null;
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
