/**
 * @module payload-fill
 * A payload buffer that is written front to back as chunks arrive, and that readers can
 * follow: `until(n)` resolves once the first n bytes are in. It lets the relay send a result
 * to its first HTTP client while the rest still crosses from the worker.
 */

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

  constructor(byteLength: number) {
    this.bytes = new Uint8Array(new ArrayBuffer(byteLength));
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
    this.#filled += chunk.byteLength;
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
