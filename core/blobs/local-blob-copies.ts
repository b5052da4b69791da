/**
 * @module local-blob-copies
 * The results a blob store keeps in this process's memory beside the store itself, so a hit
 * costs no trip to Redis or S3. Each copy is held in the host's result budget (which may drop
 * it first) and lives no longer than its blob in the store, nor than `keepMs`; a sweep lets
 * the expired ones go. Without a budget (a worker process) nothing is kept: hosts read results.
 * A result not held is read once however many ask for it at the same moment.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** How often expired copies are let go. */
const SWEEP_MS = 5000;

interface Held {
  result: StoredResult;
  /** When the blob's life in the store ends (ms since the epoch): the copy leaves then too. */
  until: number;
}

export class LocalBlobCopies {
  #budget: ResultBudget<StoredResult> | null;
  #keepMs: number;
  #held = new Map<string, Held>();
  /** Reads of results not held, under way: those who ask meanwhile share them. */
  #reading = new Map<string, Promise<StoredResult | null>>();
  #sweeper: NodeJS.Timeout | null = null;

  /**
   * @param budget where copies are held; null keeps none
   * @param keepMs longest a copy stays: the host's own entries' longest life
   */
  constructor(budget: ResultBudget<StoredResult> | null, keepMs: number) {
    this.#budget = budget;
    this.#keepMs = keepMs;
    if (budget) {
      this.#sweeper = setInterval(() => this.#sweep(), SWEEP_MS);
      this.#sweeper.unref();
    }
  }

  /** Keeps `result` for up to `lifeMs` (at most keepMs), or lengthens the copy already kept. */
  keep(hash: string, result: StoredResult, lifeMs: number): void {
    if (!this.#budget || lifeMs <= 0) return;
    const until = Date.now() + Math.min(lifeMs, this.#keepMs);
    const held = this.#held.get(hash);
    if (held) return void (held.until = Math.max(held.until, until));
    this.#held.set(hash, { result, until });
    this.#budget.hold(result, `blob:${hash}`, () => this.#held.delete(hash));
  }

  /** Lengthens a kept copy's life to `lifeMs` from now (its blob's life was lengthened). */
  extend(hash: string, lifeMs: number): void {
    const held = this.#held.get(hash);
    if (held) held.until = Math.max(held.until, Date.now() + Math.min(lifeMs, this.#keepMs));
  }

  /** The kept copy of `hash`, else the read of it under way, else `read()` started and shared until it ends. */
  useOrRead(hash: string, read: () => Promise<StoredResult | null>): Promise<StoredResult | null> {
    const held = this.use(hash);
    if (held) return Promise.resolve(held);
    let reading = this.#reading.get(hash);
    if (!reading) {
      reading = read().finally(() => this.#reading.delete(hash));
      this.#reading.set(hash, reading);
    }
    return reading;
  }

  /** Whether a read of `hash` is under way. */
  reading(hash: string): boolean {
    return this.#reading.has(hash);
  }

  /** The kept copy, still alive, marked as used in the budget; undefined when there is none. */
  use(hash: string): StoredResult | undefined {
    const held = this.#held.get(hash);
    if (!held || held.until <= Date.now()) return undefined;
    this.#budget?.touch(held.result);
    return held.result;
  }

  /** Whether a copy is kept and still alive. */
  alive(hash: string): boolean {
    return (this.#held.get(hash)?.until ?? 0) > Date.now();
  }

  /** Whether a copy is kept (alive or not yet swept). */
  holds(hash: string): boolean {
    return this.#held.has(hash);
  }

  /** Lets every copy go (cache clear). */
  dropAll(): void {
    for (const [hash, held] of this.#held) this.#release(hash, held);
  }

  close(): void {
    if (this.#sweeper) clearInterval(this.#sweeper);
    this.#sweeper = null;
    this.dropAll();
  }

  #sweep(): void {
    const now = Date.now();
    for (const [hash, held] of this.#held) if (held.until <= now) this.#release(hash, held);
  }

  #release(hash: string, held: Held): void {
    this.#held.delete(hash);
    this.#budget?.release(held.result, `blob:${hash}`);
  }
}
