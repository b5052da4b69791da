/**
 * @module json-encoder
 * Encodes stored results as JSON for /invoke and /jobs/{id}/result. Anything but a small
 * result is encoded on the encode worker thread (never on the event loop), so progress polls are
 * never starved. A result is encoded once however many clients read it at the same time, and
 * its encoding counts in the host's result budget (`--cache-max-bytes`) with the result: a
 * remembered one for as long as the result is held, a shared one while it is being sent.
 */
import type Tinypool from 'tinypool';
import type { ResultBudget } from '../cache/result-budget.ts';
import { createHostError } from '../errors.ts';
import type { JsonTask } from '../workers/protocol.ts';
import { runTask } from '../workers/task-pool.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength, toJsonResult } from '../results/to-json-result.ts';

/** Below this many bytes of array data, encoding inline is cheaper than a thread hop. */
const INLINE_BYTES = 64 * 1024;
/** Encodings up to this size are remembered alongside their result for as long as it lives. */
const MEMO_BYTES = 32 * 1024 * 1024;

/** A larger encoding, shared by the readers sending it at the moment. */
interface SharedEncoding {
  bytes: Promise<Buffer>;
  readers: number;
  /** The bytes it counts in the budget once encoded (0 when encoding failed). */
  counted: Promise<number>;
}

/** One reader's use of an encoding: `release()` once the response is over. */
export interface EncodingLease {
  bytes: Buffer;
  release(): void;
}

export class JsonResultEncoder {
  #pool: Tinypool;
  #maxBytes: number;
  #budget: ResultBudget<StoredResult> | null;
  #memo = new WeakMap<StoredResult, Promise<Buffer>>();
  #shared = new Map<StoredResult, SharedEncoding>();

  constructor(pool: Tinypool, options: { maxJsonResultBytes: number; budget?: ResultBudget<StoredResult> }) {
    this.#pool = pool;
    this.#maxBytes = options.maxJsonResultBytes;
    this.#budget = options.budget ?? null;
  }

  /** Counts an encoding's bytes with `result` once it exists; returns what to give back, if anything. */
  #count(result: StoredResult, bytes: Promise<Buffer>): Promise<number> {
    return bytes.then(
      (buffer) => {
        this.#budget?.attach(result, buffer.byteLength);
        return buffer.byteLength;
      },
      () => 0,
    );
  }

  #encodeOffThread(result: StoredResult): Promise<Buffer> {
    const task: JsonTask = { op: 'json', result };
    return runTask(this.#pool, task).then((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /**
   * The JSON bytes of `result` for one reader; 413 when its arrays exceed the JSON size limit.
   * Every reader of a result gets the same bytes: small and moderate encodings are remembered
   * with the result, a larger one is kept while at least one reader still sends it, so
   * readers that stall hold no copy of their own.
   */
  async acquire(result: StoredResult, functionName: string): Promise<EncodingLease> {
    const size = resultByteLength(result);
    if (size > this.#maxBytes) {
      throw createHostError('SPC_ERR_RESULT_TOO_LARGE', functionName, String(size), String(this.#maxBytes));
    }
    if (size <= INLINE_BYTES) return { bytes: Buffer.from(toJsonResult(result), 'utf8'), release: () => {} };
    if (size <= MEMO_BYTES) {
      let memo = this.#memo.get(result);
      if (!memo) {
        memo = this.#encodeOffThread(result);
        this.#memo.set(result, memo);
        memo.catch(() => this.#memo.delete(result));
        // Lives as long as the result (a weak map entry), so it counts with the result.
        void this.#count(result, memo);
      }
      return { bytes: await memo, release: () => {} };
    }
    let shared = this.#shared.get(result);
    if (!shared) {
      const bytes = this.#encodeOffThread(result);
      shared = { bytes, readers: 0, counted: this.#count(result, bytes) };
      this.#shared.set(result, shared);
    }
    const entry = shared;
    entry.readers++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--entry.readers > 0 || this.#shared.get(result) !== entry) return;
      this.#shared.delete(result);
      void entry.counted.then((bytes) => this.#budget?.attach(result, -bytes));
    };
    try {
      return { bytes: await entry.bytes, release };
    } catch (error) {
      release();
      throw error;
    }
  }
}
