/**
 * @module remote-reads
 * Every read the host makes from a remote goes through here: the target checked to lie inside
 * its remote, at most 16 reads at once per remote, each bounded by `--remote-timeout`, kept in
 * the remote cache under the URL, range and the key's own version, and every fault turned into the
 * catalogued error naming the remote and the key: SPC_ERR_REMOTE_NOT_ALLOWED when the read
 * would leave what the operator named, SPC_ERR_REMOTE_UNAVAILABLE when the remote failed or
 * timed out. Nothing here blocks anything but the read that waits for it.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import { createHostError, isHostError, type HostError } from '../errors.ts';
import { ChunkValidators } from './chunk-validators.ts';
import { FetchLimit } from './fetch-limit.ts';
import { httpRead } from './http-read.ts';
import type { s3Head as S3Head, s3Read as S3Read } from './s3-read.ts';
import { RemoteFault, versionOf, type ByteRange, type RemoteBytes } from './remote-bytes.ts';
import { remoteCacheKey, type RemoteCache } from './remote-cache.ts';
import type { RemoteTarget } from './remote-list.ts';

/** Reads at once per remote, at most. */
export const REMOTE_FETCHES = 16;

export interface RemoteReadsOptions {
  timeoutMs: number;
  /** Largest single answer accepted, bytes. */
  maxAnswerBytes: number;
  /** The S3 endpoint of `s3://` remotes (as the blob store's: `--s3-endpoint`, else the AWS environment). */
  s3Endpoint: string | null;
}

/** What has been read from each remote (bytes and requests), for the operator and the benchmarks. */
export interface RemoteTally {
  requests: number;
  bytes: number;
}

function rangeText(range: ByteRange | undefined): string {
  if (!range) return '';
  return 'suffixLength' in range ? `-${range.suffixLength}` : `${range.offset}+${range.length}`;
}

export class RemoteReads {
  readonly #limits = new Map<string, FetchLimit>();
  readonly #tally = new Map<string, RemoteTally>();
  /** The S3 client and reader, loaded with the SDK when an `s3://` remote is first read. */
  #s3: Promise<{ client: S3Client; read: typeof S3Read; head: typeof S3Head }> | null = null;

  /** The version each chunk or shard was last seen at, and when. */
  readonly validators: ChunkValidators;

  constructor(
    readonly options: RemoteReadsOptions,
    readonly cache: RemoteCache,
  ) {
    this.validators = new ChunkValidators(cache);
  }

  /** Requests and bytes read from `remote` so far. */
  tally(remote: string): RemoteTally {
    return { ...(this.#tally.get(remote) ?? { requests: 0, bytes: 0 }) };
  }

  /**
   * The bytes at `target` (a range of them when asked); undefined when the remote has no such
   * key. `arrayVersion` null reads the remote every time (metadata, whose version is what it
   * answers). Otherwise the bytes are kept under the URL, the range and the key's own version
   * (chunk-validators.ts): a version seen within its window is trusted without a round trip, an
   * older one is asked again with a `HEAD` (no bytes) before the kept bytes are served, and a
   * key the remote gives no version for is kept under `arrayVersion` (its array's metadata's).
   */
  async read(target: RemoteTarget, range?: ByteRange, arrayVersion: string | null = null, signal?: AbortSignal): Promise<RemoteBytes | undefined> {
    if (arrayVersion === null) return this.#fetch(target, range, signal);
    const keyUnder = (version: string) =>
      remoteCacheKey(target.url, rangeText(range), version === '' ? `array ${arrayVersion}` : `key ${version}`);
    let known = await this.validators.get(target.url);
    if (known && this.validators.stale(known)) {
      const head = await this.head(target, signal);
      if (!head) {
        this.validators.forget(target.url);
        return undefined;
      }
      await this.validators.set(target.url, versionOf(head) ?? '');
      known = await this.validators.get(target.url);
    }
    const kept = known ? await this.cache.get(keyUnder(known.version)) : undefined;
    if (kept) return kept;
    const read = await this.#fetch(target, range, signal);
    if (!read) return undefined;
    const version = versionOf(read) ?? '';
    if (known?.version !== version || this.validators.stale(known)) await this.validators.set(target.url, version);
    await this.cache.set(keyUnder(version), read);
    return read;
  }

  /**
   * The version `target` is now (its ETag, else its Last-Modified; '' when it gives neither),
   * asked with a HEAD (no bytes, nothing kept), under the same rules and limits as a read;
   * null when the remote has no such key.
   */
  async versionNow(target: RemoteTarget, signal?: AbortSignal): Promise<string | null> {
    const head = await this.head(target, signal);
    return head ? (versionOf(head) ?? '') : null;
  }

  /** What a `HEAD` of `target` says (its version and length, no bytes), under the same rules and limits as a read; undefined when missing. */
  head(target: RemoteTarget, signal?: AbortSignal): Promise<RemoteBytes | undefined> {
    return this.#fetch(target, undefined, signal, true);
  }

  async #fetch(target: RemoteTarget, range: ByteRange | undefined, signal: AbortSignal | undefined, head = false): Promise<RemoteBytes | undefined> {
    const { remote } = target;
    let limit = this.#limits.get(remote.name);
    if (!limit) this.#limits.set(remote.name, (limit = new FetchLimit(REMOTE_FETCHES)));
    return limit.run(async () => {
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      const bounded = signal ? AbortSignal.any([signal, timeout]) : timeout;
      try {
        const read =
          remote.kind === 's3'
            ? await this.#s3Read(target.url, range, bounded, head)
            : await httpRead(remote, target.url, range, bounded, this.options.maxAnswerBytes, head);
        const tally = this.#tally.get(remote.name) ?? { requests: 0, bytes: 0 };
        tally.requests++;
        tally.bytes += read?.bytes.length ?? 0;
        this.#tally.set(remote.name, tally);
        return read;
      } catch (error) {
        throw this.#faultOf(target, error, timeout.aborted);
      }
    });
  }

  async #s3Read(url: string, range: ByteRange | undefined, signal: AbortSignal, head: boolean): Promise<RemoteBytes | undefined> {
    this.#s3 ??= Promise.all([import('../blobs/s3-location.ts'), import('./s3-read.ts')]).then(([location, reader]) => ({
      client: location.createS3Client(location.s3EndpointOf(this.options.s3Endpoint)),
      read: reader.s3Read,
      head: reader.s3Head,
    }));
    const s3 = await this.#s3;
    return head ? s3.head(s3.client, url, signal) : s3.read(s3.client, url, range, signal, this.options.maxAnswerBytes);
  }

  #faultOf(target: RemoteTarget, error: unknown, timedOut: boolean): HostError {
    if (isHostError(error)) return error;
    const where = `${target.remote.name}/${target.path}`;
    if (error instanceof RemoteFault && error.kind === 'refused') return createHostError('SPC_ERR_REMOTE_NOT_ALLOWED', where, error.message);
    const why = timedOut
      ? `no answer within ${this.options.timeoutMs / 1000} s (--remote-timeout)`
      : error instanceof Error
        ? error.message || error.name
        : String(error);
    const fault = createHostError('SPC_ERR_REMOTE_UNAVAILABLE', target.remote.name, target.path, why);
    fault.cause = error;
    return fault;
  }
}
