/**
 * @module step-cache
 * The steps of a volume with time or channels that this page has fetched or is fetching,
 * each a 3-D volume keyed by its time step, its channel (an index, or a vector field's
 * `magnitude` or `rgb`) and its level (`full`, or `coarse`: averaged down as a coarse first
 * view is). A handful are kept (the steps around the one shown, ahead and behind), within a
 * count and a byte budget; the oldest touched goes first, and a fetch dropped that way is
 * cancelled.
 */
import type { SpecimenData, VolumeData } from '../../core/wire/decoded-types.ts';
import { isAbortError } from '../../core/client/errors.ts';
import type { DeliveryQuery } from '../../core/wire/wire-types.ts';
import { COARSE_VOLUME_DIM } from '../coarse-first.ts';

export type StepChannel = number | 'magnitude' | 'rgb';
export type StepLevel = 'full' | 'coarse';

/** Fetches one step: `t` and `c` (and for a coarse level `max_dim`) in the query. */
export type FetchStep = (query: DeliveryQuery, signal: AbortSignal) => Promise<SpecimenData>;

interface Entry {
  data: VolumeData | null;
  controller: AbortController;
  failed: boolean;
}

/** Steps kept at most (a few steps either way for up to three channels, at two levels). */
const LIMIT = 40;

/** Bytes of samples kept at most: large steps keep fewer neighbours. @defaultValue 512 MiB */
const MAX_BYTES = 512 * 1024 * 1024;

export class StepCache {
  readonly #fetch: FetchStep;
  readonly #arrived: () => void;
  readonly #entries = new Map<string, Entry>();

  readonly #maxBytes: number;
  readonly #coarseDim: number;
  /** Bytes of the largest piece in so far. */
  #largest = 0;

  /**
   * `arrived` is told whenever a fetched step comes in; `maxBytes` bounds the samples kept;
   * `coarseDim` is the coarse level's samples per axis at most (`max_dim`).
   */
  constructor(fetch: FetchStep, arrived: () => void, options: { maxBytes?: number; coarseDim?: number } = {}) {
    this.#fetch = fetch;
    this.#arrived = arrived;
    this.#maxBytes = options.maxBytes ?? MAX_BYTES;
    this.#coarseDim = options.coarseDim ?? COARSE_VOLUME_DIM;
  }

  /** The step when it is in, else null. */
  get(t: number, c: StepChannel, level: StepLevel): VolumeData | null {
    return this.#entries.get(key(t, c, level))?.data ?? null;
  }

  /**
   * How many steps of `pieces` pieces fit in half the cache, by count and (with the largest
   * piece in so far) by bytes: as many as a player may fetch ahead and still keep what it shows.
   */
  fits(pieces: number): number {
    const byCount = Math.floor(LIMIT / 2 / Math.max(1, pieces));
    return this.#largest > 0 ? Math.min(byCount, Math.floor(this.#maxBytes / 2 / (this.#largest * Math.max(1, pieces)))) : byCount;
  }

  /** Puts an already fetched step in (the answer the content was made from). */
  seed(t: number, c: StepChannel, level: StepLevel, data: VolumeData): void {
    this.#entries.set(key(t, c, level), { data, controller: new AbortController(), failed: false });
    this.#largest = Math.max(this.#largest, data.data.byteLength);
  }

  /** Starts fetching the step unless it is in or on its way (one that failed is asked again). */
  load(t: number, c: StepChannel, level: StepLevel): void {
    const k = key(t, c, level);
    const found = this.#entries.get(k);
    if (found && !found.failed) {
      // Touched: it moves to the newest end.
      this.#entries.delete(k);
      this.#entries.set(k, found);
      return;
    }
    const entry: Entry = { data: null, controller: new AbortController(), failed: false };
    this.#entries.set(k, entry);
    this.#trim();
    const query: DeliveryQuery = { t, c, ...(level === 'coarse' ? { max_dim: this.#coarseDim } : {}) };
    this.#fetch(query, entry.controller.signal).then(
      (data) => {
        if (data.type !== 'volume' || this.#entries.get(k) !== entry) return;
        entry.data = data;
        this.#largest = Math.max(this.#largest, data.data.byteLength);
        this.#trim();
        this.#arrived();
      },
      (error: unknown) => {
        entry.failed = true;
        if (!isAbortError(error)) console.warn(`step t=${t} c=${c} could not be fetched`, error);
      },
    );
  }

  /** Cancels every fetch and forgets every step. */
  clear(): void {
    for (const entry of this.#entries.values()) entry.controller.abort();
    this.#entries.clear();
  }

  /** Drops the oldest touched steps past the count or the byte budget (the newest always stays). */
  #trim(): void {
    let bytes = 0;
    for (const entry of this.#entries.values()) bytes += entry.data?.data.byteLength ?? 0;
    for (const [k, entry] of this.#entries) {
      if (this.#entries.size <= 1 || (this.#entries.size <= LIMIT && bytes <= this.#maxBytes)) return;
      bytes -= entry.data?.data.byteLength ?? 0;
      entry.controller.abort();
      this.#entries.delete(k);
    }
  }
}

function key(t: number, c: StepChannel, level: StepLevel): string {
  return `${t}/${c}/${level}`;
}
