/**
 * @module layer-sources
 * A layer's source as `/data` names it, resolved and computed as `/data` would: a static
 * specimen is read as the result of its file (held like a computed one, so it has a result id,
 * a blob and, for a volume, an OME-Zarr store), unless no parser reads its file, which is then
 * shown as it is (file-layers.ts); a dynamic specimen or a function is checked and
 * computed through the room's cache, in the cache slot it is given (the room's own for the
 * active layer, the layer's own otherwise). A parameter bound to the room's points takes them.
 * Errors of resolving name the layer's field (`layers[1].source: missing required parameter ...`).
 * A source with `segment` shows that label's surface: the labels volume is obtained as above,
 * and its surface made as `/data?segment=` makes it (kept with the volume, content-addressed).
 */
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import type { LayerKind, LayerSource, SceneLayer } from '../../wire/scene-types.ts';
import type { DeliveryVariants } from '../../delivery/delivery-variants.ts';
import { staticFileSource, staticResult } from '../../delivery/static-result.ts';
import type { RemoteData } from '../../remote/remote-data.ts';
import { createHostError, HostError, isHostError } from '../../errors.ts';
import { specimenType } from '../../registry/specimen-functions.ts';
import { readableSpecimen } from '../../registry/readable-specimen.ts';
import { computeRequestOf, resolveRequest, type RequestAsk, type RequestTarget, type SpecimenRequest } from '../../request/specimen-request.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import type { LayerProvenance } from '../../wire/provenance-types.ts';
import { hostVersion, provenanceOf } from '../../versions/provenance.ts';
import { bad } from '../check-display.ts';
import { ComputeTimeLimit } from '../../serving/compute-time-limit.ts';
import { computeResult } from '../../serving/result-source.ts';
import type { ResultIds } from '../../serving/result-ids.ts';
import type { BoundFrame } from '../../annotations/layer-frame.ts';
import { isAsIsFile } from './file-layers.ts';
import { functionsFor, type PinDeps } from './pinned-versions.ts';
import { roomPoints, type RoomAnnotations } from './room-annotations.ts';
import type { RoomRequestDeps } from '../../rooms/service/room-request.ts';

/** What resolving and computing layers reads from its host. */
export type LayerSourceDeps = RoomRequestDeps & {
  delivery: DeliveryVariants;
  resultIds: Pick<ResultIds, 'of' | 'find'>;
  annotations: RoomAnnotations;
  /** Plugin versions kept side by side, for sources that pin one. */
  plugins?: PinDeps['plugins'];
  /** Specimens published from a remote: read in place, the finest level within the host's byte budget. */
  remotes?: Pick<RemoteData, 'specimen' | 'levelFor' | 'read' | 'changed'>;
};

/**
 * A source resolved: a static specimen read as a result, a static file no parser reads (sent
 * as it is), or a computation's request.
 */
export type ResolvedSource = (
  | { kind: 'static'; record: SpecimenRecord; type: string }
  | { kind: 'file'; record: SpecimenRecord; type: string }
  | { kind: 'computed'; request: SpecimenRequest; type: string }
) & {
  /** The label whose surface is shown (`type` is then `mesh`), made of the labels volume resolved. */
  segment?: number | 'all';
};

/** A layer's kind when its request gives none, by the type of what it shows. */
export function defaultKind(type: string): LayerKind {
  if (type === 'mesh') return 'mesh';
  if (type === 'point_cloud') return 'points';
  return 'image';
}

/** The kind a result itself asks for: a volume marked as labels is a labels layer. */
export function kindOfResult(result: StoredResult): LayerKind {
  return result.type === 'volume' && result.labels === true ? 'labels' : defaultKind(result.type);
}

const FITS: Record<LayerKind, readonly string[]> = { image: ['volume', 'image'], labels: ['volume'], mesh: ['mesh'], points: ['point_cloud', 'mesh'] };

/** @throws SPC_ERR_SCENE_INVALID when a layer of `kind` cannot show results of `type`. */
export function checkKindFits(kind: LayerKind, type: string, path: string): void {
  if (!kindFits(kind, type)) throw bad(path, `'${kind}' cannot show a ${type} result (a ${type} layer is ${defaultKind(type)})`);
}

/** Whether a layer of `kind` can show a result of `type` (a type no kind names fits any). */
export function kindFits(kind: LayerKind, type: string): boolean {
  return FITS[kind].includes(type) || !['volume', 'image', 'mesh', 'point_cloud'].includes(type);
}

/** A catalogued 4xx of resolving, its detail led by the field it is about. */
function atPath(error: unknown, path: string): unknown {
  if (!isHostError(error) || error.statusCode >= 500 || error.code === 'SPC_ERR_SCENE_INVALID') return error;
  const named = new HostError(error.code, `${path}: ${error.message}`, { cause: error });
  named.headers = error.headers;
  return named;
}

/**
 * Resolves `source` of a layer of room `roomId`, its computation asked in cache slot `slotId`
 * (with `delivery`, as a `/data` request's). Points bound to its parameters come in `frame`'s
 * layer frame when given (the layer's own), else as they were marked. Nothing is computed.
 * @throws the catalogued 4xx of `/data`, led by `path`.
 */
export async function resolveLayerSource(
  deps: LayerSourceDeps,
  roomId: string,
  slotId: string,
  source: LayerSource,
  path: string,
  delivery?: RequestAsk['delivery'],
  frame?: BoundFrame,
): Promise<ResolvedSource> {
  const at = `${path}.source`;
  try {
    const resolved = await resolveUnsegmented(deps, roomId, slotId, source, at, delivery, frame);
    if (source.segment === undefined) return resolved;
    if (resolved.type !== 'volume')
      throw bad(`${at}.segment`, `asks for a label's surface, and '${source.specimen ?? source.function}' gives a ${resolved.type.replace('_', ' ')}`);
    return { ...resolved, type: 'mesh', segment: source.segment };
  } catch (error) {
    throw atPath(error, at);
  }
}

/** The source as it names a result, whatever its `segment`. */
async function resolveUnsegmented(
  deps: LayerSourceDeps,
  roomId: string,
  slotId: string,
  source: LayerSource,
  at: string,
  delivery?: RequestAsk['delivery'],
  frame?: BoundFrame,
): Promise<ResolvedSource> {
  const functions = functionsFor(deps, source);
  const params = { ...(source.params ?? {}) };
  let target: RequestTarget;
  if (source.specimen !== undefined) {
    const record = await readableSpecimen(deps, source.specimen);
    if (!record.is_dynamic) {
      if (Object.keys(params).length > 0 || source.bind) throw bad(`${at}.params`, `cannot be given: specimen '${record.id}' is static`);
      const type = specimenType(deps.functions, record);
      return { kind: isAsIsFile(record, type, at) ? 'file' : 'static', record, type };
    }
    target = { specimen: record };
  } else {
    const entry = functions.get(source.function!);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', source.function!);
    target = { function: entry };
  }
  for (const [param, binding] of Object.entries(source.bind ?? {})) params[param] = await roomPoints(deps.annotations, roomId, binding.label, frame);
  // A segment layer's bytes are its surface: asked of the labels volume as `/data?segment=` asks.
  const asked = delivery && source.segment !== undefined ? { ...delivery, asked: { ...delivery.asked, segment: source.segment } } : delivery;
  const ask: RequestAsk = { target, params: { named: params }, room: slotId, ...(asked ? { delivery: asked } : {}) };
  const request = await resolveRequest(functions === deps.functions ? deps : { ...deps, functions }, ask);
  return { kind: 'computed', request, type: request.entry.return_type };
}

/**
 * `resolved` asked in cache slot `slotId`: a source resolved when its layer was asked for is
 * computed where the scene puts the layer (the room's own slot once it is the active layer).
 */
export function inSlot(resolved: ResolvedSource, slotId: string): ResolvedSource {
  if (resolved.kind !== 'computed' || resolved.request.roomId === slotId) return resolved;
  return { ...resolved, request: { ...resolved.request, roomId: slotId } };
}

/** A layer's result and its id. */
export interface LayerOutcome {
  result: StoredResult;
  resultId: string;
  /** What computed it, or what published the array it is; absent for any other static specimen's file. */
  provenance?: LayerProvenance;
}

/**
 * The result a stale layer still shows (its source no longer gives it), as a layer's outcome;
 * null for a layer that is not stale, or once the host no longer holds that result.
 */
export async function staleOutcome(deps: Pick<LayerSourceDeps, 'resultIds'>, layer: SceneLayer): Promise<LayerOutcome | null> {
  const id = layer.stale ? layer.result?.result_id : undefined;
  const result = id ? await deps.resultIds.find(id) : null;
  if (!id || !result) return null;
  return { result, resultId: id, ...(layer.result?.provenance ? { provenance: layer.result.provenance } : {}) };
}

/**
 * What made the result `resolved` names, when its resolution alone says it: the function and
 * values of a computation, or who published a static array; undefined for a remote's array
 * (which level and versions were read is known only once it is read) and any other file.
 */
export function knownProvenance(deps: Pick<LayerSourceDeps, 'remotes'>, resolved: ResolvedSource): LayerProvenance | undefined {
  if (resolved.kind === 'computed') return provenanceOf(resolved.request.entry, resolved.request.values);
  if (resolved.kind !== 'static' || deps.remotes?.specimen(resolved.record.id)) return undefined;
  return resolved.record.published ? { published: resolved.record.published, host: hostVersion() } : undefined;
}

/**
 * Computes (or takes from the cache) what `resolved` names.
 * @throws SPC_ERR_SCENE_INVALID for a file no parser reads: the host holds no result of it.
 */
export async function obtainLayerResult(deps: LayerSourceDeps, resolved: ResolvedSource, signal?: AbortSignal): Promise<LayerOutcome> {
  let result: StoredResult | null;
  let provenance: LayerProvenance | undefined;
  if (resolved.kind === 'file') {
    const data = resolved.record.data;
    throw bad('source.specimen', `'${resolved.record.id}' is a '${data?.kind === 'file' ? data.fileName : '?'}' file, which no parser reads: it has no result`);
  } else if (resolved.kind === 'static' && deps.remotes?.specimen(resolved.record.id)) {
    const remote = deps.remotes.specimen(resolved.record.id)!;
    const read = await deps.remotes.read(remote, deps.remotes.levelFor(remote), signal);
    result = read.result;
    // Which level of which image, and the version of every key read: a snapshot keeps them.
    provenance = { remote: read.origin, host: hostVersion() };
  } else if (resolved.kind === 'static') {
    const file = staticFileSource(resolved.record);
    // A local file is held like a computed result (its blob and OME-Zarr store answer); a relayed one is read once.
    result = file ? await staticResult(deps.delivery, resolved.record, file) : null;
    result ??= await deps.staticInputs.load(resolved.record, signal ?? new AbortController().signal);
    provenance = knownProvenance(deps, resolved);
  } else {
    const limit = new ComputeTimeLimit(deps.options.computeTimeoutSeconds);
    const request = resolved.request;
    result = await limit.run(request.entry.name, () => computeResult(deps.results, computeRequestOf(request, { signal: limit.joined(signal) })));
    provenance = knownProvenance(deps, resolved);
  }
  if (resolved.segment !== undefined) result = await deps.delivery.shaped(result, { segment: resolved.segment });
  return { result, resultId: await deps.resultIds.of(result), ...(provenance ? { provenance } : {}) };
}
