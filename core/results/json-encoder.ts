/**
 * @module json-encoder
 * Encodes stored results as JSON for /invoke and /jobs/{id}/result. Anything but a small
 * result is encoded on the encode worker thread (never on the event loop), so progress polls are
 * never starved. Encodings of moderate size are remembered per result, so peers of a room
 * asking for the same cached result do not encode it again.
 */
import type Tinypool from 'tinypool';
import { createHostError } from '../errors.ts';
import type { JsonTask } from '../workers/protocol.ts';
import type { StoredResult } from './stored-result.ts';
import { resultByteLength, toJsonResult } from './to-json-result.ts';

/** Below this many bytes of array data, encoding inline is cheaper than a thread hop. */
const INLINE_BYTES = 64 * 1024;
/** Encodings up to this size are remembered alongside their result. */
const MEMO_BYTES = 32 * 1024 * 1024;

export class JsonResultEncoder {
  #pool: Tinypool;
  #maxBytes: number;
  #memo = new WeakMap<StoredResult, Promise<Buffer>>();

  constructor(pool: Tinypool, options: { maxJsonResultBytes: number }) {
    this.#pool = pool;
    this.#maxBytes = options.maxJsonResultBytes;
  }

  /** The JSON bytes of `result`; 413 when its arrays exceed the JSON size limit. */
  encode(result: StoredResult, functionName: string): Promise<Buffer> {
    const size = resultByteLength(result);
    if (size > this.#maxBytes) {
      return Promise.reject(createHostError('SPC_ERR_RESULT_TOO_LARGE', functionName, String(size), String(this.#maxBytes)));
    }
    if (size <= INLINE_BYTES) return Promise.resolve(Buffer.from(toJsonResult(result), 'utf8'));
    const memo = this.#memo.get(result);
    if (memo) return memo;
    const task: JsonTask = { op: 'json', result };
    const encoded = (this.#pool.run(task, { name: 'json' }) as Promise<Uint8Array>).then((bytes) =>
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    );
    if (size <= MEMO_BYTES) {
      this.#memo.set(result, encoded);
      encoded.catch(() => this.#memo.delete(result));
    }
    return encoded;
  }
}
