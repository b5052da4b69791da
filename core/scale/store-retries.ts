/**
 * @module store-retries
 * Storing a computed result while the blob store may be down. A result a job waits for is not
 * thrown away because the store did not answer for a while: the node keeps it and tries again
 * (half a second, then doubling up to 5 s between tries) until it is stored, the computation
 * is no longer wanted (cancelled, ended elsewhere), {@link STORE_RETRY_MS} have passed, or the
 * results waiting on this node would hold more than its byte bound; only then does the
 * computation fail with the store's error. A result no job waits for fails at once instead:
 * its requests answer 503 while the store is down, as the service promises, and ask again.
 */
import { isHostError } from '../errors.ts';
import type { BlobStore, PutBlob } from '../blobs/blob-store.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';

/** Longest a result waits for the store, ms. */
export const STORE_RETRY_MS = 120_000;
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5000;

/** Whether `error` is the object store being unreachable (worth another try later). */
function storeDown(error: unknown): boolean {
  return isHostError(error) && error.code === 'SPC_ERR_BLOB_STORE_UNAVAILABLE';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface StoreRetryOptions {
  /** Keep trying (a job waits for the result); false: the first failure is the answer. */
  retry: boolean;
  /** Whether the computation still wants its result stored (it may have been cancelled meanwhile). */
  stillWanted: () => Promise<boolean>;
  /** Says once that the result waits for the store. */
  note: (why: string) => void;
}

export class StoreRetries {
  #blobs: BlobStore;
  #maxHeldBytes: number;
  #held = 0;

  /** `maxHeldBytes`: the most bytes of results this node keeps while they wait for the store. */
  constructor(blobs: BlobStore, maxHeldBytes: number) {
    this.#blobs = blobs;
    this.#maxHeldBytes = maxHeldBytes;
  }

  /** Bytes of results waiting for the store now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Stores `result`; null when the computation stopped wanting it while it waited.
   * @throws the store's error once retrying is over (or not allowed); any other error at once.
   */
  async put(result: StoredResult, ttlMs: number, options: StoreRetryOptions): Promise<PutBlob | null> {
    const deadline = Date.now() + STORE_RETRY_MS;
    const bytes = resultByteLength(result);
    let holding = false;
    try {
      for (let wait = FIRST_WAIT_MS; ; wait = Math.min(LONGEST_WAIT_MS, wait * 2)) {
        try {
          return await this.#blobs.put(result, ttlMs);
        } catch (error) {
          if (!storeDown(error) || !options.retry || Date.now() + wait > deadline) throw error;
          if (!holding) {
            if (this.#held + bytes > this.#maxHeldBytes) throw error;
            this.#held += bytes;
            holding = true;
            options.note((error as Error).message);
          }
          await sleep(wait);
          if (!(await options.stillWanted())) return null;
        }
      }
    } finally {
      if (holding) this.#held -= bytes;
    }
  }
}
