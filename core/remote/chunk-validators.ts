/**
 * @module chunk-validators
 * The version (ETag, else Last-Modified; '' when the remote gives neither) each chunk or shard
 * was last seen at, and when the remote last said so. A chunk's bytes are kept under its own
 * version, so a chunk the remote rewrote (a new ETag) is never served from the cache once its
 * version has been asked again; and asking is rare: a version is trusted for
 * REVALIDATE_SECONDS after the remote last gave it (with the bytes, or to a `HEAD`), so cached
 * reads inside that window make no round trip at all. A snapshot's verify that finds a key
 * moved sets its version at once.
 *
 * Kept in this process's memory and, as a small entry beside the bytes, in the remote cache
 * (the data folder, a service's blob store), so a host started again, or another host of the
 * service, trusts what was seen there for the rest of its window.
 */
import { remoteCacheKey, type RemoteCache } from './remote-cache.ts';

/** How long a chunk's version is trusted without asking the remote again, seconds. */
export const REVALIDATE_SECONDS = 60;

export interface ChunkValidator {
  /** The version the remote gave (its ETag, else Last-Modified; '' for neither). */
  version: string;
  /** When the remote last gave it, ms since the epoch. */
  seen: number;
}

/** The cache key a URL's validator is kept under (no read's range is ever `validator`). */
const keyOf = (url: string) => remoteCacheKey(url, 'validator', null);

function parse(bytes: Uint8Array): ChunkValidator | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<ChunkValidator>;
    return typeof value.version === 'string' && typeof value.seen === 'number' ? { version: value.version, seen: value.seen } : undefined;
  } catch {
    return undefined;
  }
}

export class ChunkValidators {
  readonly #seen = new Map<string, ChunkValidator>();

  constructor(
    readonly cache: RemoteCache,
    readonly now: () => number = () => Date.now(),
  ) {}

  /** What is known of `url`'s version, from memory or the cache; undefined when never seen. */
  async get(url: string): Promise<ChunkValidator | undefined> {
    const near = this.#seen.get(url);
    if (near) return near;
    const kept = await this.cache.get(keyOf(url));
    const value = kept ? parse(kept.bytes) : undefined;
    if (value) this.#seen.set(url, value);
    return value;
  }

  /** Whether `validator` must be asked again before its bytes are served. */
  stale(validator: ChunkValidator): boolean {
    return this.now() - validator.seen >= REVALIDATE_SECONDS * 1000;
  }

  /** The remote gave `version` for `url` just now. */
  async set(url: string, version: string): Promise<void> {
    const value = { version, seen: this.now() };
    this.#seen.set(url, value);
    await this.cache.set(keyOf(url), { bytes: new TextEncoder().encode(JSON.stringify(value)), etag: null, lastModified: null });
  }

  /** Takes `url`'s version as unknown here (the remote no longer has it): the next read asks the remote. */
  forget(url: string): void {
    this.#seen.set(url, { version: '', seen: Number.NEGATIVE_INFINITY });
  }
}
