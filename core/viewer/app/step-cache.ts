/**
 * @module step-cache
 * The steps of a volume with time or channels that this page has fetched or is fetching,
 * each a 3-D volume keyed by its time step, its channel (an index, or a vector field's
 * `magnitude` or `rgb`) and its level (`full`, or `coarse`: averaged down as a coarse first
 * view is). A handful are kept (the steps around the one shown, ahead and behind); the oldest
 * touched goes first, and a fetch dropped that way is cancelled.
 */
import type { SpecimenData, VolumeData } from '../../client/decoded-types.ts';
import { isAbortError } from '../../client/errors.ts';
import type { DeliveryQuery } from '../../client/wire-types.ts';
import { COARSE_VOLUME_DIM } from './coarse-first.ts';

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

export class StepCache {
  readonly #fetch: FetchStep;
  readonly #arrived: () => void;
  readonly #entries = new Map<string, Entry>();

  /** `arrived` is told whenever a fetched step comes in. */
  constructor(fetch: FetchStep, arrived: () => void) {
    this.#fetch = fetch;
    this.#arrived = arrived;
  }

  /** The step when it is in, else null. */
  get(t: number, c: StepChannel, level: StepLevel): VolumeData | null {
    return this.#entries.get(key(t, c, level))?.data ?? null;
  }

  /** Puts an already fetched step in (the answer the content was made from). */
  seed(t: number, c: StepChannel, level: StepLevel, data: VolumeData): void {
    this.#entries.set(key(t, c, level), { data, controller: new AbortController(), failed: false });
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
    const query: DeliveryQuery = { t, c, ...(level === 'coarse' ? { max_dim: COARSE_VOLUME_DIM } : {}) };
    this.#fetch(query, entry.controller.signal).then(
      (data) => {
        if (data.type !== 'volume' || this.#entries.get(k) !== entry) return;
        entry.data = data;
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

  #trim(): void {
    for (const [k, entry] of this.#entries) {
      if (this.#entries.size <= LIMIT) return;
      entry.controller.abort();
      this.#entries.delete(k);
    }
  }
}

function key(t: number, c: StepChannel, level: StepLevel): string {
  return `${t}/${c}/${level}`;
}
