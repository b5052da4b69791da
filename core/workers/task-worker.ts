/**
 * @module task-worker
 * The worker-thread entry (bundled by worker-script.ts, run by tinypool). `invoke` imports a
 * plugin bundle once per version and calls the export (results/call-plugin-function.ts); `json` encodes a stored result as JSON text; `hash` works out a
 * result's id; `parseFile` reads an uploaded file; `pyramid` makes a volume's OME-Zarr levels; `labelIndex` and `surface` find a segmentation's labels and make
 * their surfaces; `meshLods` builds a surface's levels of detail; `roomPicture` draws a room's PNG; `labelsVersion` makes an edited layer's version whole;
 * `labelsEntries` finds its changed segments' entries in boxes of one; `parseImport` reads an
 * annotation import. Progress leaves on the task's MessagePort; a cancel arrives on it (cooperative: the signal aborts, and the next `report`
 * call throws). If the function does not stop, the host terminates this thread.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import Tinypool from 'tinypool';
import type {
  HashTask,
  HostPortMessage,
  InvokeOutcome,
  InvokeTask,
  JsonTask,
  ParseFileOutcome,
  ParseFileTask,
  PyramidTask,
  RoomPictureTask,
  TaskResults,
  WarmEditingTask,
  WorkerPortMessage,
} from './protocol.ts';
import type { LabelIndexTask, LoadStaticTask, PackFileTask, PackTask, ShapeTask, SurfaceTask } from '../delivery/delivery-tasks.ts';
import type { LabelIndex } from '../labels/label-index.ts';
import type { LoadedStaticFile } from '../delivery/load-static-file.ts';
import type { PackedBytes } from '../delivery/pack-delivery.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ImportOutcome, ParseImportTask } from '../annotations/parse-import.ts';
import type { AssembleLevelTask, BuiltLevelSet, MeshLodsTask } from '../meshes/lod-tasks.ts';
import type { RemoteVolumeChunk, RemoteVolumeTask } from '../remote/volume-task.ts';
import type { VersionVoxelsTask } from '../edits/version-voxels.ts';
import type { RegionEntriesTask, VersionRegionTask } from '../edits/version-region.ts';
import type { IndexEntry } from '../labels/derived-label-index.ts';
import type { LabelArray } from '../edits/label-volume.ts';
import { PressureCollector } from '../memory/pressure-gc.ts';
import { callPluginFunction, type ReportedProgress } from '../results/call-plugin-function.ts';
import { ProgressBatch } from '../results/progress-batch.ts';
import { computeResultId } from '../results/result-id.ts';
import { resultByteLength, toJsonResult } from '../results/to-json-result.ts';
import { loadOnce } from '../loading/load-once.ts';

// What a thread needs only for some tasks is loaded by the first such task, not when the thread
// starts: a host starts its warm threads with it (three on two cores), and each loaded the whole
// graph (109 modules) in about 120 ms of CPU, most of it for work few threads ever do.
const labelIndexes = loadOnce(() => import('../labels/label-index.ts'));
const derivedLabelIndexes = loadOnce(() => import('../labels/derived-label-index.ts'));
const segmentMeshes = loadOnce(() => import('../labels/segment-mesh.ts'));
const shaping = loadOnce(() => import('../delivery/shape-result.ts'));
const packing = loadOnce(() => import('../delivery/pack-delivery.ts'));
const staticFiles = loadOnce(() => import('../delivery/load-static-file.ts'));
const files = loadOnce(async () => {
  const [parse, size, format] = await Promise.all([
    import('../results/parse-checked-file.ts'),
    import('../formats/decoded-size.ts'),
    import('../formats/format-error.ts'),
  ]);
  return { ...parse, ...size, ...format };
});
const pyramids = loadOnce(() => import('../pyramid/step-pyramid.ts'));
const pictures = loadOnce(() => import('../thumbnails/room-picture.ts'));
const imports = loadOnce(() => import('../annotations/parse-import.ts'));
const meshLevels = loadOnce(() => import('../meshes/run-lods-task.ts'));
const remoteReads = loadOnce(() => import('../remote/port-store.ts'));
const versions = loadOnce(() => import('../edits/version-voxels.ts'));
const takenBoxes = loadOnce(() => import('./taken-boxes.ts'));
const warming = loadOnce(() => import('./warm-editing.ts'));

// Plugin work yields the CPU to the host's event loop: on Linux a thread has its own nice
// value, so lowering this thread's priority keeps requests (progress polls above all) fast
// while every core is busy with jobs. Elsewhere this is a no-op.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
} catch {
  // No per-thread priority on this platform.
}

// A plugin calling process.exit would end this thread with the task unanswered. Node itself
// calls process.exit to end a thread after an uncaught error (a plugin's timer throwing):
// that call must go through, since throwing inside Node's fatal-error path can abort the
// whole process (seen as "FATAL ERROR: v8::ToLocalChecked Empty MaybeLocal" in a test run).
const exitThread = process.exit.bind(process);
process.exit = ((code?: number) => {
  if (new Error().stack?.includes('workerOnGlobalUncaughtException')) return exitThread(code);
  throw new Error(`process.exit(${code ?? ''}) is not allowed in a plugin function`);
}) as typeof process.exit;

const modules = new Map<string, Promise<Record<string, unknown>>>();

// Results handed to the host are shared buffers this thread's heap still points at until it
// collects; an idle thread would never do so, and a busy one does not either (shared memory
// starts no collection): past this many bytes handed over, it collects at once.
const HANDED_OVER_COLLECT_BYTES = 64 * 1024 * 1024;
const gc = new PressureCollector(HANDED_OVER_COLLECT_BYTES, 1000);

function load(modulePath: string, version: string): Promise<Record<string, unknown>> {
  const url = `${pathToFileURL(modulePath).href}?v=${encodeURIComponent(version)}`;
  let mod = modules.get(url);
  if (!mod) {
    mod = import(url) as Promise<Record<string, unknown>>;
    mod.catch(() => modules.delete(url));
    modules.set(url, mod);
  }
  return mod;
}

export async function invoke(task: InvokeTask): Promise<InvokeOutcome> {
  const { port } = task;
  const flag = new Int32Array(task.cancelFlag);
  const controller = new AbortController();
  const onMessage = (message: HostPortMessage) => {
    if (message.type === 'cancel') controller.abort(new Error('cancelled'));
  };
  port.on('message', onMessage);
  let handedOver = 0;
  let ms: number | undefined;
  const reports = new ProgressBatch<ReportedProgress>((batch) => port.postMessage({ type: 'progress', reports: batch } satisfies WorkerPortMessage));
  try {
    const mod = await load(task.modulePath, task.version);
    const fn = mod[task.exportName];
    if (typeof fn !== 'function') {
      return { ok: false, kind: 'function', message: `the bundle exports no function '${task.exportName}'` };
    }
    port.postMessage({ type: 'running' } satisfies WorkerPortMessage);
    const called = performance.now();
    const outcome = await callPluginFunction({
      fn: fn as (...a: unknown[]) => unknown,
      args: task.args,
      reporterIndex: task.reporterIndex,
      signalIndex: task.signalIndex,
      returnType: task.returnType,
      signal: controller.signal,
      isCancelled: () => Atomics.load(flag, 0) === 1,
      onProgress: (progress) => reports.add(progress),
    });
    ms = performance.now() - called;
    if (outcome.ok) handedOver = resultByteLength(outcome.result);
    // The plugin's own error object may not survive the trip to the host thread.
    return outcome.ok ? outcome : { ok: false, kind: outcome.kind, message: outcome.message };
  } finally {
    reports.flush();
    gc.freed(handedOver);
    port.off('message', onMessage);
    const end: WorkerPortMessage = { type: 'end', ...(ms === undefined ? {} : { ms }) };
    port.postMessage(end);
    port.close();
  }
}

export function json(task: JsonTask): Uint8Array {
  const bytes = Buffer.from(toJsonResult(task.result), 'utf8');
  const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Small buffers live in Node's shared allocation pool, which must not be moved away;
  // large ones own their memory and are handed back without a copy.
  if (bytes.buffer.byteLength !== bytes.byteLength) return view;
  return Tinypool.move(view) as unknown as Uint8Array;
}

export function hash(task: HashTask): string {
  return computeResultId(task.result);
}

/**
 * Packed bytes in shared memory: the host reads them without a copy (a copy here, off the
 * event loop, rather than one on the host's thread when the answer arrives).
 */
function sharedPacked(packed: PackedBytes): PackedBytes {
  const { bytes } = packed;
  if (bytes.buffer instanceof SharedArrayBuffer) return packed;
  const out = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
  out.set(bytes);
  return { ...packed, bytes: out };
}

/** Runs `make`, counting what it hands over (0 when it fails) towards the next collection. */
async function handingOver<V>(make: () => Promise<V>, sizeOf: (value: V) => number): Promise<V> {
  let bytes = 0;
  try {
    const value = await make();
    bytes = sizeOf(value);
    return value;
  } finally {
    gc.freed(bytes);
  }
}

const packedSize = (packed: PackedBytes) => packed.bytes.byteLength;

export function shape(task: ShapeTask): Promise<StoredResult> {
  return handingOver(
    async () => (await shaping()).shapeResult(task.result, task.options),
    (shaped) => (shaped === task.result ? 0 : resultByteLength(shaped)),
  );
}

export function pack(task: PackTask): Promise<PackedBytes> {
  return handingOver(
    async () => sharedPacked(await (await packing()).packResult(task)),
    packedSize,
  );
}

export function packFileTask(task: PackFileTask): Promise<PackedBytes> {
  return handingOver(async () => sharedPacked(await (await packing()).packFile(task.path, task.encoding)), packedSize);
}

export function loadStatic(task: LoadStaticTask): Promise<LoadedStaticFile> {
  return handingOver(
    async (): Promise<LoadedStaticFile> => (await staticFiles()).loadStaticFile(task.source),
    (loaded) => ('result' in loaded ? resultByteLength(loaded.result) : 0),
  );
}

export async function parseFileTask(task: ParseFileTask): Promise<ParseFileOutcome> {
  const { bytes } = task;
  const { parseCheckedFile, DecodedSizeError, FormatError } = await files();
  let handed = 0;
  try {
    const result = await parseCheckedFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), task.fileName, task.geometry, task.maxDecodedBytes);
    handed = resultByteLength(result);
    return { ok: true, result };
  } catch (error) {
    if (error instanceof DecodedSizeError) return { ok: false, kind: 'size', size: error.size, limit: error.limit };
    if (error instanceof FormatError) return { ok: false, kind: 'format', message: error.message };
    throw error;
  } finally {
    gc.freed(handed + bytes.byteLength);
  }
}

export function pyramid(task: PyramidTask): Promise<TaskResults['pyramid']> {
  return handingOver(async () => (await pyramids()).buildStepPyramid(task.volume), (levels) => levels.reduce((sum, level) => sum + resultByteLength(level), 0));
}

export async function labelIndex(task: LabelIndexTask): Promise<LabelIndex> {
  if (task.derived) return (await derivedLabelIndexes()).derivedLabelIndex(task.derived.from, task.volume.data, task.volume.shape, task.derived.change);
  return (await labelIndexes()).buildLabelIndex(task.volume.data, task.volume.shape, task.volume.valueRange?.[1]);
}

export function surface(task: SurfaceTask): Promise<StoredResult> {
  return handingOver(async () => (await segmentMeshes()).segmentMesh(task.volume, task.index, task.ids, task.painted), resultByteLength);
}

/**
 * A surface's levels of detail (meshes/segment-lods.ts); what it hands over counts towards the
 * next collection. A box taken from an edited version (the only kind of taken box there is) is
 * read here first, into memory this thread keeps: only the set leaves.
 */
export function meshLods(task: MeshLodsTask): Promise<BuiltLevelSet> {
  return handingOver(async () => {
    const { source } = task;
    if (source.kind !== 'region' || !('op' in source.region)) return (await meshLevels()).runLodsTask(task);
    // Read as where the segment lies (1 there): its surface is then that of id 1.
    const region = (await takenBoxes()).readTaken(source.region as VersionRegionTask, source.id);
    return (await meshLevels()).runLodsTask({ ...task, source: { ...source, region, id: 1 } });
  }, (built) => ('lods' in built ? built.lods.packed.byteLength : 0));
}

/** A level of level sets as one mesh (meshes/assemble-level.ts). */
export function assembleLevel(task: AssembleLevelTask): Promise<StoredResult> {
  return handingOver(async () => (await meshLevels()).runAssembleTask(task), resultByteLength);
}

export async function roomPicture(task: RoomPictureTask): Promise<Uint8Array> {
  return (await pictures()).renderRoomPicture(task.layers, task.ask);
}

/** An annotation import read off the host's event loop (annotations/parse-import.ts). */
export async function parseImport(task: ParseImportTask): Promise<ImportOutcome> {
  return (await imports()).parseImport(task);
}

/** A remote level's selection (remote/port-store.ts); its shared values count towards the next collection. */
export function remoteVolume(task: RemoteVolumeTask): Promise<RemoteVolumeChunk> {
  return handingOver(async () => (await remoteReads()).readRemoteVolumeTask(task), (chunk) => chunk.data.byteLength);
}

/** An edited labels layer's version made whole (edits/version-voxels.ts); its shared voxels count towards the next collection. */
export function labelsVersion(task: VersionVoxelsTask): Promise<LabelArray> {
  return handingOver(async () => (await versions()).versionVoxels(task), (data) => data.byteLength);
}

/** Changed segments' entries in boxes of an edited labels layer's version (taken-boxes.ts): only the entries go back. */
export async function labelsEntries(task: RegionEntriesTask): Promise<(IndexEntry | null)[]> {
  return (await takenBoxes()).regionEntries(task);
}

/** A thread readied for an edited layer's work (warm-editing.ts). */
export async function warmEditing(_task: WarmEditingTask): Promise<number> {
  return (await warming()).warmEditing();
}
