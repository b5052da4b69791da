/**
 * @module delivery-tasks
 * The delivery work an encode thread does, as the tasks the host sends it: shaping a result,
 * packing its bytes in a format, compressing a static file and reading one as a result,
 * indexing a segmentation's labels and making a label's surface. The
 * variant cache (delivery-variants.ts) sends them; the thread entry (workers/task-worker.ts)
 * runs them with this folder's functions.
 */
import type { LabelIndex } from '../labels/label-index.ts';
import type { IndexChange } from '../labels/derived-label-index.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import type { ContentEncoding } from './content-encoding.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import type { LoadedStaticFile, StaticFileSource } from './load-static-file.ts';
import type { PackAsk, PackedBytes } from './pack-delivery.ts';

/** Shape a result for a delivery (simplify a mesh; resize and retype a volume). */
export interface ShapeTask {
  op: 'shape';
  result: StoredResult;
  options: DeliveryOptions;
}

/** Encode a (shaped) result in a delivery format, compressed when asked and worth it. */
export interface PackTask extends PackAsk {
  op: 'pack';
}

/** Compress a static data file (no bytes when not worth it: the file is sent as it is). */
export interface PackFileTask {
  op: 'packFile';
  path: string;
  encoding: ContentEncoding;
}

/** Read a static data file into memory as a result. */
export interface LoadStaticTask {
  op: 'loadStatic';
  source: StaticFileSource;
}

/** Find the ids a labels volume holds, with their voxel counts and bounding boxes. */
export interface LabelIndexTask {
  op: 'labelIndex';
  volume: StoredVolume;
  /** The index of an earlier volume this one differs from in some segments alone, and what changed: only their region is read. */
  derived?: { from: LabelIndex; change: IndexChange };
}

/** Make the surface mesh of labels of a volume, each inside its box (`index` holds at least their entries). */
export interface SurfaceTask {
  op: 'surface';
  volume: StoredVolume;
  index: LabelIndex;
  ids: number[];
  /** Per-vertex colours by label. */
  painted: boolean;
}

/** Any of the delivery tasks. */
export type DeliveryTask = ShapeTask | PackTask | PackFileTask | LoadStaticTask | LabelIndexTask | SurfaceTask;

/** What an encode thread answers to each delivery task. */
export interface DeliveryTaskResults {
  shape: StoredResult;
  pack: PackedBytes;
  packFile: PackedBytes;
  loadStatic: LoadedStaticFile;
  labelIndex: LabelIndex;
  surface: StoredResult;
}

/**
 * How the variant cache gets its tasks run on an encode thread. The worker pool implements it
 * (workers/task-pool.ts); delivery only states what it needs, so the transport may depend on
 * delivery's task shapes and never the other way round.
 */
export interface DeliveryTaskRunner {
  /** How many threads run tasks at once (the fair turns hand out this many). */
  readonly threads: number;
  run<T extends DeliveryTask>(task: T): Promise<DeliveryTaskResults[T['op']]>;
}
