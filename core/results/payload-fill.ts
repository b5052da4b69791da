/**
 * @module payload-fill
 * A payload buffer that is written front to back as chunks arrive, and that readers can
 * follow: `until(n)` resolves once the first n bytes are in. It lets the relay send a result
 * to its first HTTP client while the rest still crosses from the worker, and a host of a Redis
 * service send a result while its chunks still come from the blob store; the result whose
 * arrays are views onto it is an `ArrivingResult`.
 */

import type { StoredResult } from './stored-result.ts';

interface Waiter {
  offset: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class PayloadFill {
  readonly bytes: Uint8Array;
  #filled = 0;
  #error: Error | null = null;
  #waiters: Waiter[] = [];

  /** @param buffer the memory to fill (its first `byteLength` bytes); a new ArrayBuffer by default */
  constructor(byteLength: number, buffer: ArrayBufferLike = new ArrayBuffer(byteLength)) {
    this.bytes = new Uint8Array(buffer, 0, byteLength) as Uint8Array;
  }

  /** Bytes written so far, from the start. */
  get filled(): number {
    return this.#filled;
  }

  get complete(): boolean {
    return this.#filled === this.bytes.byteLength;
  }

  /** Appends `chunk` after the bytes already written; the caller checks it fits. */
  write(chunk: Uint8Array): void {
    this.bytes.set(chunk, this.#filled);
    this.advance(chunk.byteLength);
  }

  /**
   * Counts the next `length` bytes as written: someone (a socket read) put them in place in
   * `bytes` after those already written. The caller checks they fit.
   */
  advance(length: number): void {
    this.#filled += length;
    if (this.#waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.offset <= this.#filled) waiter.resolve();
      else still.push(waiter);
    }
    this.#waiters = still;
  }

  /** The transfer broke off: every reader waiting, and every later one, gets `error`. */
  fail(error: Error): void {
    if (this.#error || this.complete) return;
    this.#error = error;
    for (const waiter of this.#waiters) waiter.reject(error);
    this.#waiters = [];
  }

  /** Resolves once at least `offset` bytes are in (at once if they are already). */
  until(offset: number): Promise<void> {
    if (offset <= this.#filled) return Promise.resolve();
    if (this.#error) return Promise.reject(this.#error);
    return new Promise<void>((resolve, reject) => this.#waiters.push({ offset, resolve, reject }));
  }
}

/**
 * A result whose arrays are views onto memory still being written front to back. The
 * result object is the one its producer (an invoker, a blob store) resolves with once every byte is in.
 */
export interface ArrivingResult {
  result: StoredResult;
  /**
   * Resolves with how many leading bytes of `view` have arrived, once at least `atLeast`
   * have (a view onto other memory counts as complete). Rejects if the transfer fails.
   */
  arrived(view: ArrayBufferView, atLeast: number): Promise<number>;
}

/** `result`, whose arrays are views onto `fill`'s bytes, as a result still arriving. */
export function arrivingResult(result: StoredResult, fill: PayloadFill): ArrivingResult {
  return {
    result,
    async arrived(view, atLeast) {
      if (view.buffer !== fill.bytes.buffer) return view.byteLength;
      const end = view.byteOffset + view.byteLength;
      await fill.until(Math.min(end, view.byteOffset + atLeast));
      return Math.min(end, fill.filled) - view.byteOffset;
    },
  };
}
