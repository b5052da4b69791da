/**
 * @module memory-remote-cache
 * Remote bytes kept in this process's memory, least recently used dropped first past a byte
 * budget (a Map keeps insertion order: a hit is moved to the end).
 */
import type { RemoteBytes } from './remote-bytes.ts';
import type { RemoteCache } from './remote-cache.ts';

export class MemoryRemoteCache implements RemoteCache {
  readonly #entries = new Map<string, RemoteBytes>();
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  async get(key: string): Promise<RemoteBytes | undefined> {
    const value = this.#entries.get(key);
    if (value) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  async set(key: string, value: RemoteBytes): Promise<void> {
    if (value.bytes.length > this.maxBytes) return;
    const old = this.#entries.get(key);
    if (old) this.#bytes -= old.bytes.length;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    this.#bytes += value.bytes.length;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes.length;
    }
  }
}
