/**
 * @module delivery-variants
 * The variants of a result a delivery sends: the result shaped (mesh simplified, volume
 * resized or retyped) and its bytes encoded and compressed. Each variant is made once, on the
 * encode worker thread, and kept beside its result: concurrent first requests share the one
 * making, later ones reuse it. Variants count in the host's result budget as dependents of
 * their result, so they go when it goes (or earlier, least recently used first). Static data
 * files get compressed variants per file version the same way, and their contents read as
 * results. A segmentation's label index (its ids, their counts and boxes) and its segment
 * surfaces (`segment=`: a mesh, then shaped and encoded as any mesh) are variants of the
 * volume the same way. The encode threads take variant work by turns, round-robin between
 * the clients asking (fair-turns.ts), and one of them is kept for variants of small results,
 * so a client asking for a small one never waits for a large one being made for someone else.
 * A segment surface whose estimated size in the format asked passes the delivery limit is refused
 * before it is made, and past MAX_SURFACES being made or waiting a new one is refused with 503.
 * A mesh made (a surface, or any mesh put in a format of its own) is checked again, from its
 * counts, before any byte of it is sent, and an OBJ's writer stops at the limit.
 */
import { stat } from 'node:fs/promises';
import { keptWhileMade, type ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import { FormatError } from '../formats/format-error.ts';
import type { DeliveryTask, DeliveryTaskResults, DeliveryTaskRunner, LoadStaticTask, PackFileTask, PackTask, ShapeTask } from './delivery-tasks.ts';
import type { ContentEncoding } from './content-encoding.ts';
import { FairTurns } from './fair-turns.ts';
import { deliveryKey, type DeliveryOptions } from './delivery-options.ts';
import type { EncodeNames } from './format-encoder.ts';
import type { StaticFileSource } from './load-static-file.ts';
import { changesResult, onlyViews, shapeResult, shapingOptions } from './shape-result.ts';
import { labelIndexBytes, type LabelIndex } from '../labels/label-index.ts';
import { segmentVolume, surfaceTask } from './segment-delivery.ts';
import { checkMeshBytes, checkSurfaceSize, surfaceTriangles, writerStopped } from './surface-size.ts';
import { TYPED_JSON } from './pack-delivery.ts';
import { WorkGate } from '../memory/work-gate.ts';
import { bytesOf } from '../envelope/bytes-of.ts';

/** Segment surfaces being made or waiting for a thread at once; past it a 503 with Retry-After. */
export const MAX_SURFACES = 32;

/**
 * A made variant, as sent: the bytes and their Content-Encoding. `encoding` null with no
 * bytes: compression was not worth it, send the identity bytes the usual way.
 */
export interface Variant {
  bytes: Buffer;
  encoding: ContentEncoding | null;
}

type Memo<V> = Map<string, Promise<V>>;

/**
 * A surface within a triangle budget taken from its levels of detail rather than simplified
 * again: one segment's (or every one's, `all`) of a labels volume, or a large mesh's (segment
 * null); null when the result has no levels (meshes/mesh-lods.ts answers it).
 */
export type LevelPicker = (result: StoredResult, segment: number | 'all' | null, maxTriangles: number, client: string) => Promise<StoredResult | null>;

/**
 * The bytes a shaped result adds to its result's: none for a step that is a view onto the
 * result's own memory (a channel of a volume with time or channels, taken on this thread).
 */
function ownBytes(shaped: StoredResult, result: StoredResult): number {
  const views = shaped.type === 'volume' && result.type === 'volume' && shaped.data.buffer === result.data.buffer;
  return views ? 0 : resultByteLength(shaped);
}
/** Encode threads kept for variants of small results (beside the others, which take any work). */
export const SMALL_VARIANT_LANE = 1;

/** A result up to this many bytes is small: its variants take a few milliseconds to make. */
export const SMALL_VARIANT_BYTES = 1024 * 1024;

export class DeliveryVariants {
  #runner: DeliveryTaskRunner;
  #budget: ResultBudget<StoredResult>;
  /** Variant work waits its client's turn for an encode thread. */
  readonly turns: FairTurns;
  #shapedMemo = new WeakMap<object, Memo<StoredResult>>();
  #packed = new WeakMap<object, Memo<Variant>>();
  #loaded = new WeakMap<object, Memo<StoredResult>>();
  #indexes = new WeakMap<object, Memo<LabelIndex>>();
  /** Static files: path → the version whose variants are kept, and those variants. */
  #files = new Map<string, { version: string; token: object }>();
  #surfaces = new WorkGate('segment surfaces', MAX_SURFACES);
  /** Variants made since start (the one-off costs clients did not pay twice). */
  made = 0;
  #levels: LevelPicker | null = null;

  /** The most bytes a mesh made for a delivery may take (segment surfaces are checked before they are made). */
  #maxMeshBytes: number;

  constructor(runner: DeliveryTaskRunner, budget: ResultBudget<StoredResult>, maxMeshBytes = Math.floor(budget.maxBytes / 4)) {
    this.#runner = runner;
    this.#budget = budget;
    this.#maxMeshBytes = maxMeshBytes;
    const lane = runner.threads > SMALL_VARIANT_LANE ? SMALL_VARIANT_LANE : 0;
    this.turns = new FairTurns(runner.threads - lane, undefined, lane);
  }

  /** Runs `task` on the encode pool in `client`'s turn; work on a small `result` may take the small lane. */
  #run<T extends DeliveryTask>(client: string, task: T, result?: StoredResult): Promise<DeliveryTaskResults[T['op']]> {
    const small = result !== undefined && resultByteLength(result) <= SMALL_VARIANT_BYTES;
    return this.turns.run(client, () => this.#runner.run(task), small);
  }

  /** The memoised promise of `key` on `owner`, making it once with `make`. */
  #once<V extends object>(memos: WeakMap<object, Memo<V>>, owner: object, key: string, make: () => Promise<V>, sizeOf: (value: V) => number): Promise<V> {
    let memo = memos.get(owner);
    if (!memo) memos.set(owner, (memo = new Map()));
    // Using a variant uses what it came from: a file version is kept as long as its variants are read.
    this.#budget.touch(owner);
    const existing = memo.get(key);
    if (existing) {
      void existing.then(
        (value) => this.#budget.touch(value),
        () => {},
      );
      return existing;
    }
    const table = memo;
    return keptWhileMade(table, key, make(), (value) => {
      this.made++;
      // The budget may drop it at once (larger than the whole budget): the waiting
      // requests still get it, later ones make it again.
      if (value !== owner) this.#budget.holdDependent(value, sizeOf(value), owner, `variant:${key}`, () => table.delete(key));
    });
  }

  /**
   * The result shaped by the options (the result itself when they shape nothing). `client`
   * (an address) is whose turn the work waits for.
   */
  shaped(result: StoredResult, options: DeliveryOptions, client = ''): Promise<StoredResult> {
    const budget = options.max_triangles;
    const large = result.type === 'mesh' && budget !== undefined && result.indices.length / 3 > budget;
    if (this.#levels && budget !== undefined && (options.segment !== undefined || large)) return this.#leveled(result, options, budget, client);
    return this.#shaped(result, options, client);
  }

  /** Surfaces within a triangle budget are taken from their levels of detail (`useLevels`). */
  useLevels(pick: LevelPicker): void {
    this.#levels = pick;
  }

  /**
   * A surface's level that fits the budget (simplified further only when even its coarsest does
   * not); a segment's surface that fits whole is made as it is.
   */
  async #leveled(result: StoredResult, options: DeliveryOptions, budget: number, client: string): Promise<StoredResult> {
    const { segment, ...rest } = options;
    if (segment !== undefined) {
      const volume = segmentVolume(result);
      const task = surfaceTask(volume, await this.labelIndex(volume, client), segment);
      if (surfaceTriangles(task.index) <= budget) return this.#shaped(result, options, client);
    }
    const picked = await this.#levels!(result, segment ?? null, budget, client);
    return picked ? this.#shaped(picked, rest, client) : this.#shaped(result, options, client);
  }

  #shaped(result: StoredResult, options: DeliveryOptions, client: string): Promise<StoredResult> {
    if (options.segment !== undefined) return this.#surface(result, options, client);
    if (!changesResult(result, options)) return Promise.resolve(result);
    const shaping = shapingOptions(options);
    const key = deliveryKey(shaping);
    const task: ShapeTask = { op: 'shape', result, options: shaping };
    const make = onlyViews(result, shaping) ? () => shapeResult(result, shaping) : () => this.#run(client, task, result);
    return this.#once(this.#shapedMemo, result, key, make, (shaped) => ownBytes(shaped, result));
  }

  /** The ids a labels volume holds, with their voxel counts and boxes: found once, kept with the volume. */
  labelIndex(volume: StoredResult & { type: 'volume' }, client = ''): Promise<LabelIndex> {
    return this.#once(this.#indexes, volume, 'labels', () => this.#run(client, { op: 'labelIndex', volume }, volume), labelIndexBytes);
  }

  /**
   * The surface of `options.segment` of a labels volume, shaped by the rest of the options as
   * a mesh. @throws the catalogued 4xx naming `segment` when the result or id does not fit.
   */
  async #surface(result: StoredResult, options: DeliveryOptions, client: string): Promise<StoredResult> {
    const { segment, ...rest } = options;
    const volume = segmentVolume(result);
    const index = await this.labelIndex(volume, client);
    const task = surfaceTask(volume, index, segment!);
    if (!this.#shapedMemo.get(volume)?.has(`segment=${segment}`)) {
      checkSurfaceSize(task.index, { ...rest, segment: segment! }, this.#maxMeshBytes, this.#budget.maxBytes);
    }
    const make = () => this.#surfaces.run(() => this.#run(client, task, volume));
    const mesh = await this.#once(this.#shapedMemo, volume, `segment=${segment}`, make, resultByteLength);
    const shaped = await this.#shaped(mesh, rest, client);
    // Made now, its size in the format asked is known (or, for OBJ, near enough): checked before anything is sent.
    const what = `segment=${segment} of this labels volume (${index.ids.length} labels)`;
    if (shaped.type === 'mesh') checkMeshBytes(shaped, rest, this.#maxMeshBytes, what, true);
    return shaped;
  }

  /**
   * The bytes of `result` (already shaped) in `format`, compressed with `encoding` when worth it.
   * A mesh in a format of its own (not the envelope it is held as) is bounded by the delivery
   * limit: refused from its counts before it is written, or its writer stopped at the limit.
   */
  packed(
    result: StoredResult,
    format: string,
    options: DeliveryOptions,
    names: EncodeNames,
    encoding: ContentEncoding | null,
    identityNeeded: boolean,
    client = '',
  ): Promise<Variant> {
    const bounded = result.type === 'mesh' && format !== TYPED_JSON && format !== 'envelope';
    if (bounded) checkMeshBytes(result, { ...options, format }, this.#maxMeshBytes, 'this mesh');
    // The download name only matters to formats other than the default (identityNeeded).
    const key = `${format}|${deliveryKey(options)}|${encoding ?? 'identity'}|${identityNeeded ? names.baseName : ''}`;
    const told = bounded ? { ...names, maxBytes: this.#maxMeshBytes } : names;
    const task: PackTask = { op: 'pack', result, format, options, names: told, encoding, identityNeeded };
    return this.#once(this.#packed, result, key, () => this.#runPack(client, task, result), (v) => v.bytes.byteLength);
  }

  /** A static data file's compressed bytes (identity when compression saves too little). */
  packedFile(path: string, version: string, encoding: ContentEncoding, client = ''): Promise<Variant> {
    const token = this.#fileToken(path, version);
    const task: PackFileTask = { op: 'packFile', path, encoding };
    return this.#once(
      this.#packed,
      token,
      encoding,
      () => this.#runPack(client, task),
      (v) => v.bytes.byteLength,
    );
  }

  /** The object standing for one version of a file; a new version drops the old one's variants. */
  #fileToken(path: string, version: string): object {
    let file = this.#files.get(path);
    if (!file || file.version !== version) {
      // A new version of the file: the old one's variants are of no use any more.
      if (file) this.#budget.release(file.token, `file:${path}`);
      const token = {};
      file = { version, token };
      this.#files.set(path, file);
      // The version holds no bytes itself; its variants are held as its dependents.
      this.#budget.holdDependent(token, 0, token, `file:${path}`, () => {
        if (this.#files.get(path)?.token === token) this.#files.delete(path);
      });
    }
    return file.token;
  }

  /**
   * A static data file in memory as a result, per file version (held in the budget like a
   * result). @throws FormatError when the file does not parse.
   */
  staticFile(source: StaticFileSource, version: string, client = ''): Promise<StoredResult> {
    const token = this.#fileToken(source.path, version);
    const task: LoadStaticTask = { op: 'loadStatic', source };
    const load = async (): Promise<StoredResult> => {
      // The file's room in the budget is made before it is read (its bytes in memory are about its size on disk).
      this.#budget.makeRoom((await stat(source.path)).size);
      const loaded = await this.#run(client, task);
      if ('invalid' in loaded) throw new FormatError(loaded.invalid);
      return loaded.result;
    };
    return this.#once(this.#loaded, token, 'result', load, resultByteLength);
  }

  async #runPack(client: string, task: PackTask | PackFileTask, result?: StoredResult): Promise<Variant> {
    const packed = await this.#run(client, task, result);
    if (packed.over !== undefined) throw writerStopped(task.op === 'pack' ? task.format : 'its format', packed.over, this.#maxMeshBytes);
    return { bytes: bytesOf(packed.bytes), encoding: packed.encoding };
  }
}
