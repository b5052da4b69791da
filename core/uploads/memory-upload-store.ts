/**
 * @module memory-upload-store
 * Uploads held by one host: pinned in its result budget (counted like cached results, but never
 * evicted for them) until their time-to-live has passed, when they are swept; an upload that
 * would take the pins past the budget is refused (507). An id put again (the same bytes uploaded
 * twice at once) holds only its newest result in the budget.
 */
import { assertPinnable } from '../cache/pin-room.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import { uploadInfo, type UploadInfo, type UploadStore } from './upload-store.ts';

interface Held {
  result: StoredResult;
  bytes: number;
  expiresAt: number;
}

const SWEEP_MS = 5000;

export class MemoryUploadStore implements UploadStore {
  #held = new Map<string, Held>();
  #budget: ResultBudget<StoredResult>;
  #ttlMs: number;
  #sweep = setInterval(() => this.#dropExpired(), SWEEP_MS).unref();
  #now: () => number;

  /** @param now the clock time-to-lives are measured on (milliseconds) */
  constructor(budget: ResultBudget<StoredResult>, ttlSeconds: number, now: () => number = Date.now) {
    this.#budget = budget;
    this.#ttlMs = ttlSeconds * 1000;
    this.#now = now;
  }

  #live(id: string): Held | null {
    const held = this.#held.get(id);
    if (!held) return null;
    // Released from the budget by anything else (a cleared cache), it is gone as if expired.
    if (held.expiresAt > this.#now() && this.#budget.holds(held.result)) return held;
    this.#drop(id, held);
    return null;
  }

  #drop(id: string, held: Held): void {
    this.#held.delete(id);
    this.#budget.release(held.result, `upload:${id}`);
  }

  #dropExpired(): void {
    const now = this.#now();
    for (const [id, held] of this.#held) if (held.expiresAt <= now) this.#drop(id, held);
  }

  async refresh(id: string): Promise<UploadInfo | null> {
    const held = this.#live(id);
    if (!held) return null;
    held.expiresAt = this.#now() + this.#ttlMs;
    this.#budget.touch(held.result);
    return uploadInfo(id, held.result.type, held.bytes, this.#ttlMs);
  }

  async put(id: string, result: StoredResult, bytes: number): Promise<UploadInfo | null> {
    const held: Held = { result, bytes, expiresAt: this.#now() + this.#ttlMs };
    const earlier = this.#held.get(id);
    const adding = this.#budget.unpinnedBytes([result]);
    // Larger than the whole budget: never kept (413); else refused only while others fill it (507).
    if (adding > this.#budget.maxBytes) return null;
    assertPinnable(this.#budget, adding, 'another upload');
    if (earlier && earlier.result !== result) this.#drop(id, earlier);
    this.#held.set(id, held);
    this.#budget.pin(result, `upload:${id}`);
    return uploadInfo(id, held.result.type, held.bytes, this.#ttlMs);
  }

  async typeOf(id: string): Promise<ResultType | null> {
    return this.#live(id)?.result.type ?? null;
  }

  async get(id: string): Promise<StoredResult | null> {
    const held = this.#live(id);
    if (held) this.#budget.touch(held.result);
    return held?.result ?? null;
  }

  close(): void {
    clearInterval(this.#sweep);
  }
}
