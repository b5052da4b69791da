/**
 * @module blob-lookups
 * Looking up blob ids this host does not hold (`/api/blobs/{id}`, an OME-Zarr store by result
 * id) in the service's blob store, without letting a flood of unknown ids stall the host: each
 * id costs the store at most one lookup at a time (concurrent asks share it), an id found
 * missing is remembered for a short while (asked again, it is a 404 at once), and at most
 * {@link MAX_LOOKUPS} lookups run at once on a host, {@link MAX_CLIENT_LOOKUPS} for one client.
 * Past either bound the request is refused at once with 503 and `Retry-After`: it never waits
 * in a line, and nothing else (the store's connections, the event loop) waits behind them.
 * Each lookup is bounded in time by the store itself (a stalled store is a 503 within 10 s).
 */
import { createHostError, type HostError } from '../errors.ts';
import type { StoredResult } from '../results/stored-result.ts';

/**
 * Store lookups of ids not held here at once on one host. Each costs the host a store
 * request (a couple of milliseconds of the S3 client's CPU) and the store some of its own,
 * whether the id is real or made up; a flood of made-up ids can cause no more of them at a
 * time than this. Real clients hardly notice: concurrent asks for one id share its lookup, a
 * found blob is held here afterwards, and the client library waits out the 503's Retry-After.
 */
export const MAX_LOOKUPS = 8;
/** Store lookups at once for one client (by address): one client cannot take every slot. */
export const MAX_CLIENT_LOOKUPS = 4;
/** How long an id found missing is answered as missing without asking the store again. */
export const MISS_MEMORY_MS = 5000;
/** Missing ids remembered at most (the oldest go first). */
const MAX_MISSES = 10_000;
/** Seconds a refused client is asked to wait. */
const RETRY_AFTER_S = 1;

function busy(why: string): HostError {
  const error = createHostError('SPC_ERR_BLOB_LOOKUPS_BUSY', why);
  error.headers['retry-after'] = String(RETRY_AFTER_S);
  return error;
}

export class BlobLookups {
  #find: (hash: string) => Promise<StoredResult | null>;
  #now: () => number;
  #running = new Map<string, Promise<StoredResult | null>>();
  #byClient = new Map<string, number>();
  /** Ids found missing and when, oldest first. */
  #misses = new Map<string, number>();

  constructor(find: (hash: string) => Promise<StoredResult | null>, now: () => number = () => Date.now()) {
    this.#find = find;
    this.#now = now;
  }

  /** Lookups running now. */
  get running(): number {
    return this.#running.size;
  }

  /**
   * The result stored under `hash`, or null; `client` is who asks (its address).
   * @throws SPC_ERR_BLOB_LOOKUPS_BUSY (503, Retry-After) past the bounds; what the store throws otherwise.
   */
  find(hash: string, client: string): Promise<StoredResult | null> {
    const missedAt = this.#misses.get(hash);
    if (missedAt !== undefined) {
      if (this.#now() - missedAt < MISS_MEMORY_MS) return Promise.resolve(null);
      this.#misses.delete(hash);
    }
    const running = this.#running.get(hash);
    if (running) return running;
    if (this.#running.size >= MAX_LOOKUPS) throw busy(`${MAX_LOOKUPS} lookups of blob ids run already`);
    const mine = this.#byClient.get(client) ?? 0;
    if (mine >= MAX_CLIENT_LOOKUPS) throw busy(`${MAX_CLIENT_LOOKUPS} lookups of blob ids for this client run already`);
    this.#byClient.set(client, mine + 1);
    const lookup = this.#find(hash)
      .then((result) => {
        if (!result) this.#missed(hash);
        return result;
      })
      .finally(() => {
        this.#running.delete(hash);
        const left = (this.#byClient.get(client) ?? 1) - 1;
        if (left === 0) this.#byClient.delete(client);
        else this.#byClient.set(client, left);
      });
    this.#running.set(hash, lookup);
    return lookup;
  }

  /** A blob stored here since: it is no longer missing. */
  stored(hash: string): void {
    this.#misses.delete(hash);
  }

  #missed(hash: string): void {
    this.#misses.delete(hash);
    this.#misses.set(hash, this.#now());
    if (this.#misses.size > MAX_MISSES) this.#misses.delete(this.#misses.keys().next().value!);
  }
}
