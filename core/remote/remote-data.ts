/**
 * @module remote-data
 * Remote data on one host: the remotes the operator named, every read from them, and the
 * specimens published from them. Publishing reads the image's metadata only; a specimen's
 * levels are read when something shows them, the level that fits (within a byte budget, or
 * within a `max_dim`), and the volumes read last are held so their result ids (the OME-Zarr
 * stores, blob URLs) keep answering while they are shown. The specimens' references are kept
 * in a store (remote-specimen-store.ts): another host of a Redis service, or this host after
 * a restart with a data folder, opens them again from there.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { LayeredRemoteCache } from './layered-remote-cache.ts';
import type { RemoteLevelOrigin, RemoteProvenance } from '../wire/provenance-types.ts';
import { MemoryRemoteCache } from './memory-remote-cache.ts';
import { MemoryRemoteSpecimens } from './memory-remote-specimens.ts';
import type { RemoteSpecimenRecord, RemoteSpecimenStore } from './remote-specimen-store.ts';
import { openRemoteImage } from './remote-image.ts';
import { RemoteList } from './remote-list.ts';
import { checkAgainstImage, type RemotePublishInput } from './remote-publish-input.ts';
import { RemoteReads } from './remote-reads.ts';
import { METADATA } from './remote-zarr-store.ts';
import type { RemoteCache } from './remote-cache.ts';
import { levelForMaxDim, levelWithin, readRemoteVolume, selectedShape } from './read-remote-volume.ts';
import { infoOf, type RemoteSpecimen, type RemoteSpecimenInfo } from './remote-specimen.ts';

export type { RemoteSpecimen, RemoteSpecimenInfo } from './remote-specimen.ts';
import type { RemoteVolumeRunner } from './volume-task.ts';

export interface RemoteDataOptions {
  remotes: Readonly<Record<string, string>>;
  remoteTimeoutSeconds: number;
  maxRemoteBytes: number;
  /** The S3 endpoint of `s3://` remotes, as the blob store's. */
  s3Endpoint: string | null;
  /**
   * Where remote bytes are kept beyond this process (the blob plane: the data folder, a
   * service's blob store), behind its memory (a budget of `maxRemoteBytes`); none by default.
   */
  shared?: RemoteCache | null;
  /**
   * Says what went wrong on the side: a shared home of remote bytes that failed (a read then
   * asks the remote again), an image that could not be opened at a refresh.
   */
  warn?: (message: string, error?: unknown) => void;
  /** The host's result budget: the levels read are held in it as any result is (so their ids answer), and dropped by it. */
  budget: Pick<ResultBudget<StoredResult>, 'hold' | 'release'>;
  /** Where a level's chunks are decoded: a worker thread, off the event loop. */
  run: RemoteVolumeRunner;
  /** Where the specimens' references are kept (memory by default: gone with the process). */
  store?: RemoteSpecimenStore;
}

/** What a refresh changed: specimens listed anew (or replaced), and ids no longer published. */
export interface RemoteChanges {
  listed: RemoteSpecimenInfo[];
  gone: string[];
  /** False when this host is not yet in line with the store (an image that could not be opened now): refresh again later. */
  complete: boolean;
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

export class RemoteData {
  readonly list: RemoteList;
  readonly reads: RemoteReads;
  readonly maxRemoteBytes: number;
  readonly #specimens = new Map<string, RemoteSpecimen>();
  /** The levels read, by `id\nlevel`, while the host's result budget holds them. */
  readonly #held = new Map<string, Promise<RemoteLevelRead>>();
  readonly #budget: RemoteDataOptions['budget'];
  readonly #run: RemoteVolumeRunner;
  readonly #store: RemoteSpecimenStore;
  readonly #warn: (message: string, error?: unknown) => void;
  /** The store's version this host's specimens match; null: read the list at the next refresh. */
  #seen: string | null = null;
  /** Moved by each publish and remove made here: a list read before one of them is stale. */
  #edits = 0;
  #refreshing: Promise<RemoteChanges> | null = null;

  constructor(options: RemoteDataOptions) {
    this.list = new RemoteList(options.remotes);
    this.maxRemoteBytes = options.maxRemoteBytes;
    this.#budget = options.budget;
    this.#run = options.run;
    this.#store = options.store ?? new MemoryRemoteSpecimens();
    this.#warn = options.warn ?? (() => {});
    const near = new MemoryRemoteCache(options.maxRemoteBytes);
    const cache = options.shared ? new LayeredRemoteCache(near, options.shared, this.#warn) : near;
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

  /**
   * Publishes `input` as specimen `id`, reading the image's metadata only, and keeps its
   * reference in the store (answered means kept there); `replaced` when the id was a remote
   * specimen already.
   */
  async publish(id: string, input: RemotePublishInput): Promise<{ replaced: boolean; info: RemoteSpecimenInfo }> {
    const specimen = await this.#open({ id, input, published_at: Date.now() });
    this.#edits++;
    const replaced = await this.#store.put({ id, input: specimen.input, published_at: specimen.published_at });
    // Another host may have written meanwhile: the list is read again at the next refresh.
    this.#seen = null;
    this.#hold(specimen);
    return { replaced, info: infoOf(specimen) };
  }

  async remove(id: string): Promise<boolean> {
    this.#edits++;
    const removed = await this.#store.remove(id);
    this.#seen = null;
    this.#letGo(id);
    return this.#specimens.delete(id) || removed;
  }

  /** The image a record names, opened (its metadata read) and checked against what the record asks. */
  async #open(record: RemoteSpecimenRecord): Promise<RemoteSpecimen> {
    const { id, input } = record;
    const image = await openRemoteImage(this.reads, this.list, input.remote);
    checkAgainstImage(input, image);
    const labels = input.labels || image.labels;
    return { id, input: { ...input, labels }, image: { ...image, labels }, published_at: record.published_at };
  }

  #hold(specimen: RemoteSpecimen): void {
    this.#specimens.set(specimen.id, specimen);
    this.#letGo(specimen.id);
  }

  /**
   * Brings this host's specimens in line with the store: those published (or replaced) on
   * another host of the service, or before a restart, are opened (their metadata read, under
   * this host's own remotes and rules); those removed are let go. One read of the version while
   * nothing changed. An image that cannot be opened now (its remote down) is tried again at the
   * next refresh. Answers what changed, for the catalog.
   */
  refresh(): Promise<RemoteChanges> {
    this.#refreshing ??= this.#readStore().finally(() => (this.#refreshing = null));
    return this.#refreshing;
  }

  async #readStore(): Promise<RemoteChanges> {
    const version = await this.#store.version();
    if (version === this.#seen) return { listed: [], gone: [], complete: true };
    const edits = this.#edits;
    const records = await this.#store.list();
    // A publish or delete made here meanwhile is newer than this list: the next read applies.
    if (this.#edits !== edits) return { listed: [], gone: [], complete: false };
    const ids = new Set(records.map((record) => record.id));
    const gone = [...this.#specimens.keys()].filter((id) => !ids.has(id));
    for (const id of gone) {
      this.#letGo(id);
      this.#specimens.delete(id);
    }
    const fresh = records.filter((record) => this.#specimens.get(record.id)?.published_at !== record.published_at);
    const opened = await Promise.allSettled(fresh.map((record) => this.#open(record)));
    const listed: RemoteSpecimenInfo[] = [];
    let complete = this.#edits === edits;
    for (const [i, outcome] of opened.entries()) {
      if (outcome.status === 'rejected') {
        complete = false;
        const why = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        this.#warn(`remote specimen '${fresh[i]!.id}' (${fresh[i]!.input.remote}) could not be opened here yet: ${why}`);
      } else if (this.#edits === edits) {
        this.#hold(outcome.value);
        listed.push(infoOf(outcome.value));
      }
    }
    if (complete) this.#seen = version;
    return { listed, gone, complete };
  }

  /** Lets go of the levels read of specimen `id` (replaced or removed). */
  #letGo(id: string): void {
    for (const [key, held] of this.#held) {
      if (!key.startsWith(`${id}\n`)) continue;
      this.#held.delete(key);
      void held.then(({ result }) => this.#budget.release(result, `remote:${key}`)).catch(() => {});
    }
  }

  /**
   * The level a reader gets: the finest within the byte budget, and within `max_dim` too when it
   * asks for one. Never a level over the budget: what is read of a remote (a volume, the surfaces
   * and meshes of labels) is held in memory whole.
   */
  levelFor(specimen: RemoteSpecimen, maxDim?: number): number {
    const { image, input } = specimen;
    const within = levelWithin(image, input.level, input, this.maxRemoteBytes);
    return maxDim !== undefined ? Math.max(within, levelForMaxDim(image, input.level, maxDim)) : within;
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
  async changed(origin: Pick<RemoteProvenance['remote'], 'name' | 'path' | 'versions'>, signal?: AbortSignal): Promise<RemoteKeyChange[]> {
    const keys = Object.entries(origin.versions);
    // Every key is checked against the host's remotes before any is asked.
    const targets = keys.map(([key]) => this.list.resolve(`${origin.name}/${key}`));
    const now = await Promise.all(targets.map((target) => this.reads.versionNow(target, signal)));
    const changes = keys.flatMap(([key, recorded], i) => (now[i] === recorded ? [] : [{ key, recorded, now: now[i]!, url: targets[i]!.url }]));
    if (changes.length > 0) await this.#moved(origin, changes);
    return changes.map(({ url: _url, ...change }) => change);
  }

  /**
   * The remote gave other versions of an image's keys than a level was read with: each key's
   * version is taken as the remote gives it now (so its bytes are read again, not served from
   * the cache), and the levels held of every specimen of that image are let go, so the next
   * reader reads them anew; a moved metadata document opens the image again first.
   */
  async #moved(origin: Pick<RemoteProvenance['remote'], 'name' | 'path'>, changes: (RemoteKeyChange & { url: string })[]): Promise<void> {
    await Promise.all(changes.map(({ url, now }) => (now === null ? this.reads.validators.forget(url) : this.reads.validators.set(url, now))));
    const metadataMoved = changes.some(({ key }) => METADATA.test(key));
    const ofImage = [...this.#specimens.values()].filter(({ image }) => image.target.remote.name === origin.name && image.target.path === origin.path);
    for (const specimen of ofImage) {
      if (!metadataMoved) {
        this.#letGo(specimen.id);
        continue;
      }
      const opened = await this.#open(specimen).catch((error: unknown) => {
        this.#warn(`remote specimen '${specimen.id}' could not be opened again after its metadata changed`, error);
        return null;
      });
      // Still this specimen (not replaced or removed meanwhile): the levels read of the old metadata go with it.
      if (this.#specimens.get(specimen.id) === specimen) {
        if (opened) this.#hold(opened);
        else this.#letGo(specimen.id);
      }
    }
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
