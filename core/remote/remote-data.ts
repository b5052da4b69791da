/**
 * @module remote-data
 * Remote data on one host: the remotes the operator named, every read from them, and the
 * specimens published from them. Publishing reads the image's metadata only; a specimen's
 * levels are read when something shows them, the level that fits (within a byte budget, or
 * within a `max_dim`), and the volumes read last are held so their result ids (the OME-Zarr
 * stores, blob URLs) keep answering while they are shown.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { RemoteLevelOrigin, RemoteProvenance } from '../wire/provenance-types.ts';
import { MemoryRemoteCache } from './memory-remote-cache.ts';
import { openRemoteImage, type RemoteImage } from './remote-image.ts';
import { RemoteList } from './remote-list.ts';
import { checkAgainstImage, type RemotePublishInput } from './remote-publish-input.ts';
import { RemoteReads } from './remote-reads.ts';
import type { RemoteCache } from './remote-cache.ts';
import { levelForMaxDim, levelWithin, readRemoteVolume, selectedAxes, selectedShape } from './read-remote-volume.ts';
import type { RemoteVolumeRunner } from './volume-task.ts';

export interface RemoteDataOptions {
  remotes: Readonly<Record<string, string>>;
  remoteTimeoutSeconds: number;
  maxRemoteBytes: number;
  /** The S3 endpoint of `s3://` remotes, as the blob store's. */
  s3Endpoint: string | null;
  /** Where remote bytes are kept; default: memory, a budget of `maxRemoteBytes`. */
  cache?: RemoteCache;
  /** The host's result budget: the levels read are held in it as any result is (so their ids answer), and dropped by it. */
  budget: Pick<ResultBudget<StoredResult>, 'hold' | 'release'>;
  /** Where a level's chunks are decoded: a worker thread, off the event loop. */
  run: RemoteVolumeRunner;
}

/** A specimen published from a remote: what it shows of which image. */
export interface RemoteSpecimen {
  id: string;
  input: RemotePublishInput;
  image: RemoteImage;
  published_at: number;
}

/** A key whose version moved since a level was read: what was recorded, and what the remote says now (null: gone). */
export interface RemoteKeyChange {
  key: string;
  recorded: string | null;
  now: string | null;
}

/** A level read: the volume, which level it is, and the version of every key read for it. */
export interface RemoteLevelRead {
  result: StoredResult;
  origin: RemoteProvenance['remote'];
}

/** What a remote publish answers: the specimen's sizes, levels and geometry. */
export interface RemoteSpecimenInfo {
  id: string;
  remote: string;
  type: 'volume';
  display_name: string;
  description: string;
  tags: string[];
  format: 'ome-zarr-0.4' | 'ome-zarr-0.5';
  axes: string;
  shape: number[];
  dtype: string;
  /** Each level's shape, the specimen's finest first. */
  levels: number[][];
  spacing: number[];
  origin: number[];
  labels: boolean;
  level: number;
  channel: number | null;
  t: number | null;
  published_at: number;
}

export class RemoteData {
  readonly list: RemoteList;
  readonly reads: RemoteReads;
  readonly maxRemoteBytes: number;
  readonly #specimens = new Map<string, RemoteSpecimen>();
  /** The levels read, by `id\nlevel`, while the host's result budget holds them. */
  readonly #held = new Map<string, Promise<RemoteLevelRead>>();
  readonly #budget: RemoteDataOptions['budget'];
  readonly #run: RemoteVolumeRunner;

  constructor(options: RemoteDataOptions) {
    this.list = new RemoteList(options.remotes);
    this.maxRemoteBytes = options.maxRemoteBytes;
    this.#budget = options.budget;
    this.#run = options.run;
    const cache = options.cache ?? new MemoryRemoteCache(options.maxRemoteBytes);
    const reads = { timeoutMs: options.remoteTimeoutSeconds * 1000, maxAnswerBytes: options.maxRemoteBytes, s3Endpoint: options.s3Endpoint };
    this.reads = new RemoteReads(reads, cache);
  }

  /** The remotes' names (never their URLs). */
  names(): string[] {
    return this.list.names();
  }

  specimen(id: string): RemoteSpecimen | undefined {
    return this.#specimens.get(id);
  }

  ids(): string[] {
    return [...this.#specimens.keys()];
  }

  /** Publishes `input` as specimen `id`, reading the image's metadata only; `replaced` when the id was a remote specimen already. */
  async publish(id: string, input: RemotePublishInput): Promise<{ replaced: boolean; info: RemoteSpecimenInfo }> {
    const image = await openRemoteImage(this.reads, this.list, input.remote);
    checkAgainstImage(input, image);
    const labels = input.labels || image.labels;
    const specimen: RemoteSpecimen = { id, input: { ...input, labels }, image: { ...image, labels }, published_at: Date.now() };
    const replaced = this.#specimens.has(id);
    this.#specimens.set(id, specimen);
    this.#letGo(id);
    return { replaced, info: infoOf(specimen) };
  }

  remove(id: string): boolean {
    this.#letGo(id);
    return this.#specimens.delete(id);
  }

  /** Lets go of the levels read of specimen `id` (replaced or removed). */
  #letGo(id: string): void {
    for (const [key, held] of this.#held) {
      if (!key.startsWith(`${id}\n`)) continue;
      this.#held.delete(key);
      void held.then(({ result }) => this.#budget.release(result, `remote:${key}`)).catch(() => {});
    }
  }

  /** The level a reader gets: within `max_dim` when it asks for one, else the finest within the byte budget. */
  levelFor(specimen: RemoteSpecimen, maxDim?: number): number {
    const { image, input } = specimen;
    return maxDim !== undefined ? levelForMaxDim(image, input.level, maxDim) : levelWithin(image, input.level, input, this.maxRemoteBytes);
  }

  /** Which level `level` of the specimen is: its remote, the image's path, the level's index, path and shape (after the selection). */
  originOf(specimen: RemoteSpecimen, level: number): RemoteLevelOrigin {
    const { image, input } = specimen;
    const read = image.levels[level]!;
    return { name: image.target.remote.name, path: image.target.path, level, level_path: read.path, shape: selectedShape(image, read, input) };
  }

  /**
   * The keys of a level read (`origin`, as a snapshot kept it) whose version the remote gives
   * differently now, each asked with a HEAD under the host's remote rules: a remote this host
   * does not name is refused (SPC_ERR_REMOTE_NOT_ALLOWED), one that does not answer is a 502.
   */
  async changed(origin: Pick<RemoteProvenance['remote'], 'name' | 'versions'>, signal?: AbortSignal): Promise<RemoteKeyChange[]> {
    const keys = Object.entries(origin.versions);
    // Every key is checked against the host's remotes before any is asked.
    const targets = keys.map(([key]) => this.list.resolve(`${origin.name}/${key}`));
    const now = await Promise.all(targets.map((target) => this.reads.versionNow(target, signal)));
    return keys.flatMap(([key, recorded], i) => (now[i] === recorded ? [] : [{ key, recorded, now: now[i]! }]));
  }

  /** Level `level` of the specimen as a volume result, read once and held while the host's result budget keeps it. */
  async volume(specimen: RemoteSpecimen, level: number, signal?: AbortSignal): Promise<StoredResult> {
    return (await this.read(specimen, level, signal)).result;
  }

  /**
   * As `volume`, with what was read: the level, and the version the remote gave each key read
   * for it (a snapshot keeps them; verify asks the remote whether they still hold).
   */
  read(specimen: RemoteSpecimen, level: number, signal?: AbortSignal): Promise<RemoteLevelRead> {
    const key = `${specimen.id}\n${level}`;
    const held = this.#held.get(key);
    if (held) return held;
    const reading = readRemoteVolume(specimen.image, level, specimen.input, this.#run, signal).then((result) => {
      const versions = specimen.image.store.versionsOf(specimen.image.levels[level]!.path);
      return { result, origin: { ...this.originOf(specimen, level), versions } };
    });
    this.#held.set(key, reading);
    reading.then(
      ({ result }) => this.#budget.hold(result, `remote:${key}`, () => this.#held.get(key) === reading && this.#held.delete(key)),
      // A failed read is not held: the next asks the remote again (it may be back).
      () => this.#held.get(key) === reading && this.#held.delete(key),
    );
    return reading;
  }
}

/** The answer of a remote publish. */
export function infoOf(specimen: RemoteSpecimen): RemoteSpecimenInfo {
  const { image, input } = specimen;
  const levels = image.levels.slice(input.level);
  const level = levels[0]!;
  return {
    id: specimen.id,
    remote: input.remote,
    type: 'volume',
    display_name: input.display_name ?? image.name ?? specimen.id,
    description: input.description ?? '',
    tags: input.tags,
    format: image.zarrFormat === 3 ? 'ome-zarr-0.5' : 'ome-zarr-0.4',
    axes: selectedAxes(image, input),
    shape: selectedShape(image, level, input),
    dtype: image.dtype,
    levels: levels.map((l) => selectedShape(image, l, input)),
    spacing: level.scale?.slice(-3) ?? [1, 1, 1],
    origin: level.translation?.slice(-3) ?? [0, 0, 0],
    labels: input.labels,
    level: input.level,
    channel: input.channel,
    t: input.t,
    published_at: specimen.published_at,
  };
}
