/**
 * @module layer-runs
 * What follows a change of a room's scene, on the host that made it: each layer without a
 * result is computed (or taken from the cache) as `/data` would, in its cache slot (the room's
 * own for the active layer, which is the room's entry; its own slot for any other), and its
 * `result` set in the scene; a layer whose source changed stops its old computation; a removed
 * layer's slot is freed; a layer whose source fails while it still shows a result keeps it,
 * marked `stale` with why (until a result of its source is set again); and when another layer becomes active, the room's entry moves with it
 * (the result already held is copied between slots, nothing is computed again).
 */
import { boundFrame } from '../../annotations/layer-frame.ts';
import type { LayerResult, LayerStale, RoomScene, SceneLayer } from '../../wire/scene-types.ts';
import { layerSlot } from '../../events/layer-slots.ts';
import { isHostError, type HostErrorCode } from '../../errors.ts';
import { sameSource } from '../check-source.ts';
import { layerDataUrl, specimenDataUrl } from '../scene-size.ts';
import { setLayerStale } from '../scene-ops.ts';
import type { SceneStore, SceneWrite } from '../scene-store.ts';
import { keyOf, type ResultSource } from '../../serving/result-source.ts';
import type { KeptSlot } from '../../blobs/disk-kept-results.ts';
import { asIsFileResult } from './file-layers.ts';
import { LayerRetries, passesWithTime } from './layer-retries.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import { inSlot, kindOfResult, obtainLayerResult, resolveLayerSource, type LayerOutcome, type LayerSourceDeps, type ResolvedSource } from './layer-sources.ts';
import { isBound } from './moved-points.ts';
import { ResultCounts } from './result-counts.ts';
import type { RoomEntries } from '../../rooms/service/room-entries.ts';
import { asRoomsOwn } from '../../events/acting-user.ts';

/** What the scenes of a host read and change. */
export interface SceneDeps {
  store: SceneStore;
  sources: LayerSourceDeps;
  results: Pick<ResultSource, 'copyEntry' | 'forgetEntry' | 'roomState'>;
  /** The room's own entry, apart from its scene (this service keeps the two one). */
  rooms: Pick<RoomEntries, 'ownEntry' | 'showStatic' | 'computed' | 'clear' | 'announce'>;
  log: { warn(object: Record<string, unknown>, message: string): void };
  /** Where a lone host keeps layers' results across restarts (its data folder), when it does. */
  kept?: { keep(result: StoredResult, slot?: KeptSlot): Promise<void> } | null;
  /** Whether a result has levels of detail (the layer then says so: a viewer asks for them only then). */
  hasLevels?(result: StoredResult): boolean;
}

/** The cache slot of a layer: the room's own while it is the active layer. */
export function slotOf(roomId: string, scene: Pick<RoomScene, 'active'>, layerId: string): string {
  return scene.active === layerId ? roomId : layerSlot(roomId, layerId);
}

/** The errors a computation that ran ends with: the result services send their `failed` events themselves. */
export const COMPUTATION_FAILURES = [
  'SPC_ERR_FUNCTION_FAILED',
  'SPC_ERR_JOB_CANCELLED',
  'SPC_ERR_JOB_FAILED',
  'SPC_ERR_RESULT_INVALID',
  'SPC_ERR_WORKER_CRASHED',
  'SPC_ERR_PLUGIN_PROCESS_EXITED',
  'SPC_ERR_WORKER_DISCONNECTED',
  'SPC_ERR_WORKER_TIMEOUT',
  'SPC_ERR_WORKER_ERROR',
] as const satisfies readonly HostErrorCode[];

/** A failure as the room is told it and a stale layer keeps it: its catalogued code and its words. */
function failureOf(error: unknown): LayerStale {
  return { code: isHostError(error) ? error.code : 'SPC_ERR_UNHANDLED', detail: error instanceof Error ? error.message : String(error) };
}

interface Run {
  controller: AbortController;
  layer: SceneLayer;
}

/** Sources the request already resolved, by layer id: a layer is not resolved twice for one change. */
export type ResolvedLayers = ReadonlyMap<string, ResolvedSource>;

/** Layers whose computation failed that are remembered (the oldest go first): not tried again until their source changes. */
const MAX_FAILED = 10_000;

export class LayerRuns {
  #deps: SceneDeps;
  #runs = new Map<string, Run>();
  /** The source each failed layer failed with: a later change of the scene does not run it again. */
  #failed = new Map<string, SceneLayer['source']>();
  /** When layers that failed for a while (a remote) are tried again. */
  #retries = new LayerRetries();
  /** The steps and channels of the results layers show, which their `t` and `channels` are fitted to. */
  readonly counts: ResultCounts;
  /** Rooms whose layers this host computed (the newest last): those a new plugin version may concern. */
  readonly rooms = new Set<string>();

  constructor(deps: SceneDeps) {
    this.#deps = deps;
    this.counts = new ResultCounts(deps.sources.resultIds);
  }

  /**
   * Brings the rest of the host in line with `write`: slots of removed layers freed, the entry
   * moved to a new active layer, and every layer lacking a result computed. `explicitKinds`:
   * layers whose request chose their kind (the others take it from their result). `resolved`:
   * sources the request resolved already (a bound layer's is resolved again, in its frame).
   */
  async settle(roomId: string, write: SceneWrite, explicitKinds: ReadonlySet<string> = new Set(), resolved?: ResolvedLayers): Promise<void> {
    if (!write.changed) return;
    const { before, scene } = write;
    const ids = new Set(scene.layers.map((layer) => layer.id));
    for (const gone of before.layers.filter((layer) => !ids.has(layer.id))) {
      this.#stop(roomId, gone.id);
      await this.#deps.results.forgetEntry(layerSlot(roomId, gone.id));
    }
    if (before.active !== scene.active) await this.#moveEntry(roomId, before, scene);
    for (const layer of scene.layers) {
      const key = this.#key(roomId, layer.id);
      const run = this.#runs.get(key);
      if (run && !sameSource(run.layer.source, layer.source)) this.#stop(roomId, layer.id);
      const failed = this.#failed.get(key);
      if (failed && sameSource(failed, layer.source)) continue;
      if (!layer.result && !this.#runs.has(key)) this.#start(roomId, layer, scene, !explicitKinds.has(layer.id), false, resolved?.get(layer.id));
    }
  }

  /**
   * Computes `layerIds` of the scene again, though they have a result (their sources read the
   * room's points when resolved): a run of one still going stops first.
   */
  recompute(roomId: string, scene: RoomScene, layerIds: readonly string[]): void {
    for (const layer of scene.layers) {
      if (!layerIds.includes(layer.id)) continue;
      this.#stop(roomId, layer.id);
      this.#start(roomId, layer, scene, false);
    }
  }

  /** Whether this host is computing layer `layerId` of the room now (its run sets its result, provenance and all). */
  running(roomId: string, layerId: string): boolean {
    return this.#runs.has(this.#key(roomId, layerId));
  }

  /** Stops every computation this host runs for layers (shutdown). */
  stopAll(): void {
    for (const run of this.#runs.values()) run.controller.abort();
    this.#runs.clear();
  }

  #key(roomId: string, layerId: string): string {
    return `${roomId}\u0000${layerId}`;
  }

  #stop(roomId: string, layerId: string): void {
    const key = this.#key(roomId, layerId);
    this.#runs.get(key)?.controller.abort();
    this.#runs.delete(key);
  }

  /** The room's entry follows its new active layer; the old one keeps its result in its own slot. */
  async #moveEntry(roomId: string, before: RoomScene, scene: RoomScene): Promise<void> {
    const { results, rooms } = this.#deps;
    const stays = before.active !== null && scene.layers.some((layer) => layer.id === before.active);
    if (stays) await results.copyEntry(roomId, layerSlot(roomId, before.active!));
    const next = scene.layers.find((layer) => layer.id === scene.active);
    if (!next) {
      if (scene.layers.length === 0) await rooms.clear(roomId);
      return;
    }
    // Without a result it is computed into the room's slot by settle; a static one is shown as it is.
    if (!next.result) return;
    if (next.source.specimen !== undefined && this.#deps.sources.catalog.get(next.source.specimen)?.is_dynamic === false) {
      await this.#showStatic(roomId, next.source.specimen, next.result.type);
    } else if (!(await results.copyEntry(layerSlot(roomId, next.id), roomId))) {
      this.#start(roomId, { ...next, result: undefined } as SceneLayer, scene, false, true);
    }
  }

  async #showStatic(roomId: string, specimenId: string, type: string): Promise<void> {
    const entry = await this.#deps.rooms.ownEntry(roomId);
    if (entry?.function_name !== null || entry.specimen_id !== specimenId) await this.#deps.rooms.showStatic(roomId, specimenId, type);
  }

  #start(roomId: string, layer: SceneLayer, scene: RoomScene, kindFromResult: boolean, keepResult = false, given?: ResolvedSource): void {
    const controller = new AbortController();
    const key = this.#key(roomId, layer.id);
    const run = { controller, layer };
    this.#runs.set(key, run);
    void this.#run(roomId, layer, scene, kindFromResult && !keepResult, controller.signal, given).finally(() => {
      if (this.#runs.get(key) === run) this.#runs.delete(key);
    });
  }

  async #run(roomId: string, layer: SceneLayer, scene: RoomScene, kindFromResult: boolean, signal: AbortSignal, given?: ResolvedSource): Promise<void> {
    const { sources, store, rooms } = this.#deps;
    const slotId = slotOf(roomId, scene, layer.id);
    let resolved: ResolvedSource | null = null;
    try {
      // Resolved by the request unless its points come in the layer's own frame, known only now (the room's own then).
      const frame = boundFrame(scene.layers, layer.id, layer.affine ?? null);
      resolved =
        given && !isBound(layer)
          ? inSlot(given, slotId)
          : await asRoomsOwn(() => resolveLayerSource(sources, roomId, slotId, layer.source, `layers.${layer.id}`, undefined, frame));
      const isStatic = resolved.kind !== 'computed';
      // A room's published specimen is read by name only by its room's readers: this room's copy goes by the layer's URL.
      const ownRoom = resolved.kind !== 'computed' && resolved.record.room !== undefined;
      const dataUrl = isStatic && !ownRoom ? specimenDataUrl(layer.source.specimen!, layer.source.segment) : layerDataUrl(roomId, layer.id);
      const { result, outcome } = await this.#obtain(resolved, dataUrl, signal);
      if (signal.aborted) return;
      this.#failed.delete(this.#key(roomId, layer.id));
      this.#retries.forget(this.#key(roomId, layer.id));
      this.#remember(roomId);
      const kind = kindFromResult && outcome ? kindOfResult(outcome.result) : undefined;
      // The step and channels the layer names are fitted to what it shows (they may have come before it).
      const counts = outcome ? this.counts.remember(outcome.resultId, outcome.result) : ((await this.counts.of(result)) ?? undefined);
      const write = await store.setResult(roomId, layer.id, layer.source, result, kind, counts);
      // Stopped while its result was written (the host closing its stores): the room is left alone.
      if (signal.aborted) return;
      // The active layer is the room's entry: announced once the scene holds its result, so the
      // entry link on every host finds the two alike and writes nothing more.
      if (slotId === roomId) {
        if (isStatic) await this.#showStatic(roomId, layer.source.specimen!, result.type);
        else await rooms.computed(roomId);
      }
      // The layer went (or changed) while it was computed: what the slot holds now is no one's.
      if (!write.changed && slotId !== roomId && !write.scene.layers.some((l) => l.id === layer.id)) await this.#deps.results.forgetEntry(slotId);
    } catch (error) {
      if (signal.aborted) return;
      // A service that could not answer for now (503), or a computation someone else cancelled,
      // says nothing of the source: tried again at the next change.
      const passing = isHostError(error) && (error.statusCode === 503 || error.code === 'SPC_ERR_JOB_CANCELLED');
      if (!passing) {
        this.#rememberFailed(roomId, layer);
        if (passesWithTime(error)) this.#retries.later(this.#key(roomId, layer.id), () => this.#tryAgain(roomId, layer));
        // A layer that still shows its last result shows it marked stale, with why.
        await this.#deps.store.update(roomId, setLayerStale(layer.id, layer.source, failureOf(error))).catch(() => {});
      }
      // A computation's own failure was told to the room by the result service; anything before it is told here.
      const told = resolved?.kind === 'computed' && isHostError(error) && (COMPUTATION_FAILURES as readonly string[]).includes(error.code);
      if (!told) await this.#announceFailed(roomId, layer, slotId, error);
    }
  }

  /**
   * What `resolved` shows, as the scene records it (read at `dataUrl`), and the result obtained
   * for it; a file no parser reads has no result to obtain: the layer shows the file as it is.
   */
  async #obtain(resolved: ResolvedSource, dataUrl: string, signal: AbortSignal): Promise<{ result: LayerResult; outcome: LayerOutcome | null }> {
    if (resolved.kind === 'file') return { result: await asIsFileResult(resolved.record, resolved.type), outcome: null };
    const outcome = await obtainLayerResult(this.#deps.sources, resolved, signal);
    // Kept on disk before the scene names it, so a restart shows the layer without computing it again
    // (a result that cannot be kept is still shown: it is computed again after a restart).
    // A computed one names its cache slot and key: a request of them after a restart finds it.
    const computed = resolved.kind === 'computed' && resolved.segment === undefined ? resolved.request : null;
    const slot = computed ? { slotId: computed.roomId, key: keyOf(computed.entry, computed.values) } : undefined;
    await this.#deps.kept?.keep(outcome.result, slot).catch((err: unknown) => this.#deps.log.warn({ err }, 'a layer result could not be kept on disk'));
    const result: LayerResult = { result_id: outcome.resultId, type: outcome.result.type, data_url: dataUrl, blob_id: outcome.resultId };
    if (this.#deps.hasLevels?.(outcome.result)) result.levels = true;
    return { result: outcome.provenance ? { ...result, provenance: outcome.provenance } : result, outcome };
  }

  #remember(roomId: string): void {
    this.rooms.delete(roomId);
    this.rooms.add(roomId);
    if (this.rooms.size > MAX_FAILED) this.rooms.delete(this.rooms.values().next().value!);
  }

  /** Remembers that `layer` failed with its source, so only a new source runs it again. */
  #rememberFailed(roomId: string, layer: SceneLayer): void {
    const key = this.#key(roomId, layer.id);
    this.#failed.delete(key);
    this.#failed.set(key, layer.source);
    if (this.#failed.size > MAX_FAILED) this.#failed.delete(this.#failed.keys().next().value!);
  }

  /** Tries `layer` again, unless it has a result, another source or a run by now. */
  async #tryAgain(roomId: string, layer: SceneLayer): Promise<void> {
    const key = this.#key(roomId, layer.id);
    const failed = this.#failed.get(key);
    if (!failed || !sameSource(failed, layer.source) || this.#runs.has(key)) return;
    const scene = await this.#deps.store.get(roomId);
    const now = scene.layers.find((l) => l.id === layer.id);
    if (!now || now.result || !sameSource(now.source, layer.source) || this.#runs.has(key)) return;
    this.#failed.delete(key);
    this.#start(roomId, now, scene, false);
  }

  async #announceFailed(roomId: string, layer: SceneLayer, slotId: string, error: unknown): Promise<void> {
    const { code, detail } = failureOf(error);
    if (!isHostError(error))
      this.#deps.log.warn({ room: roomId, layer: layer.id, err: error }, `layer '${layer.id}' of room '${roomId}' could not be computed`);
    const data = {
      function_name: layer.source.function ?? null,
      specimen_id: layer.source.specimen ?? null,
      job_id: null,
      code,
      detail,
      ...(slotId === roomId ? {} : { layer: layer.id }),
    };
    await this.#deps.rooms.announce(roomId, 'failed', data).catch(() => {});
  }
}
