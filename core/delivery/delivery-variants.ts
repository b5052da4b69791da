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
 * volume the same way (label-indexes.ts). The encode threads take variant work by turns
 * (variant-work.ts), and a surface within a triangle budget is taken from the levels of detail
 * the host keeps (the level source given at construction).
 * A segment surface whose estimated size in the format asked passes the delivery limit is refused
 * before it is made, and past MAX_SURFACES being made or waiting a new one is refused with 503.
 * A mesh made (a surface, or any mesh put in a format of its own) is checked again, from its
 * counts, before any byte of it is sent, and an OBJ's writer stops at the limit.
 */
import { stat } from 'node:fs/promises';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import { FormatError } from '../formats/format-error.ts';
import type { LoadStaticTask, PackFileTask, PackTask, ShapeTask } from './delivery-tasks.ts';
import type { ContentEncoding } from './content-encoding.ts';
import { deliveryKey, type DeliveryOptions } from './delivery-options.ts';
import type { EncodeNames } from './format-encoder.ts';
import type { StaticFileSource } from './load-static-file.ts';
import { changesResult, onlyViews, shapeResult, shapingOptions } from './shape-result.ts';
import type { LabelIndex } from '../labels/label-index.ts';
import type { LabelIndexes } from './label-indexes.ts';
import type { Memo, VariantKeeper } from './variant-keeper.ts';
import type { VariantWork } from './variant-work.ts';
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

/** Where a surface within a triangle budget is taken from its levels of detail rather than simplified again (meshes/mesh-lods.ts). */
export interface LevelSource {
  /**
   * One segment's surface (or every one's, `all`) of a labels volume, or a large mesh's (segment
   * null), within `maxTriangles`; null when the result has no levels.
   */
  levelMesh(result: StoredResult, segment: number | 'all' | null, maxTriangles: number, client: string): Promise<StoredResult | null>;
}

/** What the variants are made with. */
export interface VariantDeps {
  /** The encode threads, by turns. */
  work: VariantWork;
  /** Keeps what is made beside its result, in the budget (one count of everything made). */
  keeper: VariantKeeper;
  labels: LabelIndexes;
  /** Levels of detail surfaces within a triangle budget are taken from; null: always simplified. */
  levels: LevelSource | null;
  /** The most bytes a mesh made for a delivery may take; a quarter of the budget by default. */
  maxMeshBytes?: number;
}

/**
 * The bytes a shaped result adds to its result's: none for a step that is a view onto the
 * result's own memory (a channel of a volume with time or channels, taken on this thread).
 */
function ownBytes(shaped: StoredResult, result: StoredResult): number {
  const views = shaped.type === 'volume' && result.type === 'volume' && shaped.data.buffer === result.data.buffer;
  return views ? 0 : resultByteLength(shaped);
}

export class DeliveryVariants {
  #work: VariantWork;
  #keeper: VariantKeeper;
  #budget: ResultBudget<StoredResult>;
  #labels: LabelIndexes;
  #levels: LevelSource | null;
  #shapedMemo = new WeakMap<object, Memo<StoredResult>>();
  #packed = new WeakMap<object, Memo<Variant>>();
  #loaded = new WeakMap<object, Memo<StoredResult>>();
  /** Static files: path → the version whose variants are kept, and those variants. */
  #files = new Map<string, { version: string; token: object }>();
  #surfaces = new WorkGate('segment surfaces', MAX_SURFACES);
  /** The most bytes a mesh made for a delivery may take (segment surfaces are checked before they are made). */
  #maxMeshBytes: number;

  constructor(deps: VariantDeps) {
    this.#work = deps.work;
    this.#keeper = deps.keeper;
    this.#budget = deps.keeper.budget;
    this.#labels = deps.labels;
    this.#levels = deps.levels;
    this.#maxMeshBytes = deps.maxMeshBytes ?? Math.floor(this.#budget.maxBytes / 4);
  }

  /** Variants and label indexes made since start (the one-off costs clients did not pay twice). */
  get made(): number {
    return this.#keeper.made;
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
    const picked = await this.#levels!.levelMesh(result, segment ?? null, budget, client);
    return picked ? this.#shaped(picked, rest, client) : this.#shaped(result, options, client);
  }

  #shaped(result: StoredResult, options: DeliveryOptions, client: string): Promise<StoredResult> {
    if (options.segment !== undefined) return this.#surface(result, options, client);
    if (!changesResult(result, options)) return Promise.resolve(result);
    const shaping = shapingOptions(options);
    const key = deliveryKey(shaping);
    const task: ShapeTask = { op: 'shape', result, options: shaping };
    const make = onlyViews(result, shaping) ? () => shapeResult(result, shaping) : () => this.#work.run(client, task, result);
    return this.#keeper.once(this.#shapedMemo, result, key, make, (shaped) => ownBytes(shaped, result));
  }

  /** The ids a labels volume holds, with their voxel counts and boxes: found once, kept with the volume. */
  labelIndex(volume: StoredVolume, client = ''): Promise<LabelIndex> {
    return this.#labels.of(volume, client);
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
    const make = () => this.#surfaces.run(() => this.#work.run(client, task, volume));
    const mesh = await this.#keeper.once(this.#shapedMemo, volume, `segment=${segment}`, make, resultByteLength);
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
    return this.#keeper.once(this.#packed, result, key, () => this.#runPack(client, task, result), (v) => v.bytes.byteLength);
  }

  /** A static data file's compressed bytes (identity when compression saves too little). */
  packedFile(path: string, version: string, encoding: ContentEncoding, client = ''): Promise<Variant> {
    const token = this.#fileToken(path, version);
    const task: PackFileTask = { op: 'packFile', path, encoding };
    return this.#keeper.once(this.#packed, token, encoding, () => this.#runPack(client, task), (v) => v.bytes.byteLength);
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
      const loaded = await this.#work.run(client, task);
      if ('invalid' in loaded) throw new FormatError(loaded.invalid);
      return loaded.result;
    };
    return this.#keeper.once(this.#loaded, token, 'result', load, resultByteLength);
  }

  async #runPack(client: string, task: PackTask | PackFileTask, result?: StoredResult): Promise<Variant> {
    const packed = await this.#work.run(client, task, result);
    if (packed.over !== undefined) throw writerStopped(task.op === 'pack' ? task.format : 'its format', packed.over, this.#maxMeshBytes);
    return { bytes: bytesOf(packed.bytes), encoding: packed.encoding };
  }
}
