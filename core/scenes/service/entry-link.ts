/**
 * @module entry-link
 * A room's entry and its scene's active layer are one. Whatever changes the entry by request
 * (`PUT .../entry`, an agent's tool, a `/data`, `/start` or `/invoke` naming the room) becomes
 * the active layer's source, with the entry's result; `PUT .../entry` in a room without layers
 * makes a scene of one. The entry is read back on every change (never taken from the event that
 * announced it), so hosts that hear of changes late or out of order still agree. A room whose
 * cache let its entry go answers its active layer as its entry, so a client that knows only the
 * entry (the Godot client) sees and asks for what the scene shows.
 */
import { editedFrom } from '../../wire/provenance-types.ts';
import { boundFrame } from '../../annotations/layer-frame.ts';
import type { LayerResult, LayerSource, SceneLayer } from '../../wire/scene-types.ts';
import type { RoomEntry } from '../../wire/room-types.ts';
import { stableJson } from '../../wire/stable-json.ts';
import { makeLayerId } from '../layer-ids.ts';
import { namesSteps } from '../layer-steps.ts';
import { addLayer, replaceSource } from '../scene-ops.ts';
import { layerDataUrl } from '../scene-size.ts';
import { defaultKind, knownProvenance, resolveLayerSource } from './layer-sources.ts';
import type { LayerRuns, SceneDeps } from './layer-runs.ts';

/** The source a room's entry names. */
function sourceOf(entry: RoomEntry): LayerSource {
  if (entry.specimen_id !== null)
    return entry.function_name === null ? { specimen: entry.specimen_id, params: {} } : { specimen: entry.specimen_id, params: entry.params };
  return { function: entry.function_name!, params: entry.params };
}

function resultOf(roomId: string, layerId: string, entry: RoomEntry): LayerResult | undefined {
  if (!entry.result_id) return undefined;
  return {
    result_id: entry.result_id,
    type: entry.type as LayerResult['type'],
    data_url: layerDataUrl(roomId, layerId),
    blob_id: entry.blob_id ?? entry.result_id,
  };
}

export class EntryLink {
  #deps: SceneDeps;
  #runs: LayerRuns;
  /** Rooms being brought in line, and whether another pass was asked for meanwhile. */
  #following = new Map<string, { again: boolean; create: boolean }>();

  constructor(deps: SceneDeps, runs: LayerRuns) {
    this.#deps = deps;
    this.#runs = runs;
  }

  /** A request put the room's entry in front of everyone: the active layer shows it (an empty scene gets one layer). */
  async shown(roomId: string): Promise<void> {
    await this.#follow(roomId, true);
  }

  /** The room's entry may have changed (heard as an event): the active layer follows, one pass at a time per room. */
  changed(roomId: string): void {
    const pending = this.#following.get(roomId);
    if (pending) {
      pending.again = true;
      return;
    }
    const state = { again: false, create: false };
    this.#following.set(roomId, state);
    void (async () => {
      try {
        do {
          state.again = false;
          await this.#follow(roomId, false).catch((error: unknown) =>
            this.#deps.log.warn({ room: roomId, err: error }, 'a scene could not follow its room entry'),
          );
        } while (state.again);
      } finally {
        this.#following.delete(roomId);
      }
    })();
  }

  /** The active layer as the room's entry (for a room whose cache holds none); null without one. */
  async activeEntry(roomId: string): Promise<RoomEntry | null> {
    const scene = await this.#deps.store.get(roomId);
    const layer = scene.layers.find((l) => l.id === scene.active);
    if (!layer) return null;
    const ids = layer.result?.result_id ? { result_id: layer.result.result_id, ...(layer.result.blob_id ? { blob_id: layer.result.blob_id } : {}) } : {};
    const type = layer.result?.type ?? (layer.kind === 'mesh' ? 'mesh' : layer.kind === 'points' ? 'point_cloud' : 'volume');
    const frame = boundFrame(scene.layers, layer.id);
    const resolved = await resolveLayerSource(this.#deps.sources, roomId, roomId, layer.source, 'active', undefined, frame).catch(() => null);
    if (!resolved || resolved.kind !== 'computed') return { function_name: null, specimen_id: layer.source.specimen ?? null, params: {}, type, ...ids };
    const { entry, values, record } = resolved.request;
    return { function_name: entry.name, specimen_id: record?.id ?? null, params: values, type: entry.return_type, ...ids };
  }

  /**
   * What the layer's own run says of the entry's result beyond the entry's fields: whether it has
   * levels of detail, and what made it. A layer that follows the entry (and so has no run of its
   * own) then shows the same result as one that computed it.
   */
  async #ownFields(roomId: string, entry: RoomEntry): Promise<Pick<LayerResult, 'levels' | 'provenance'>> {
    const { sources, hasLevels } = this.#deps;
    if (!entry.result_id) return {};
    const held = hasLevels ? await sources.resultIds.find(entry.result_id).catch(() => null) : null;
    const resolved = await resolveLayerSource(sources, roomId, roomId, sourceOf(entry), 'active').catch(() => null);
    const provenance = resolved ? knownProvenance(sources, resolved) : undefined;
    return { ...(held && hasLevels!(held) ? { levels: true as const } : {}), ...(provenance ? { provenance } : {}) };
  }

  /** Whether `layer` shows what `entry` names (its parameters compared with defaults filled). */
  async #same(roomId: string, layer: SceneLayer, entry: RoomEntry): Promise<boolean> {
    const source = layer.source;
    if ((source.specimen ?? null) !== entry.specimen_id) return false;
    if (entry.function_name === null) return Object.keys(source.params ?? {}).length === 0;
    if (source.specimen === undefined && source.function !== entry.function_name) return false;
    const resolved = await resolveLayerSource(this.#deps.sources, roomId, roomId, source, 'active').catch(() => null);
    // A parameter bound to the room's points takes whatever points the computation read: the
    // entry is this layer's whichever they were (the point binder computes it again when they moved).
    const bound = new Set(Object.keys(source.bind ?? {}));
    const unbound = (values: Record<string, unknown>) =>
      stableJson(Object.fromEntries(Object.entries(values).filter(([name]) => !bound.has(name))));
    return (
      resolved?.kind === 'computed' &&
      resolved.request.entry.name === entry.function_name &&
      unbound(resolved.request.values) === unbound(entry.params)
    );
  }

  async #follow(roomId: string, create: boolean): Promise<void> {
    const { store, rooms } = this.#deps;
    // Most rooms have no scene: one read says so, before the entry is read at all.
    const scene = await store.get(roomId);
    if (!create && scene.active === null) return;
    const entry = await rooms.ownEntry(roomId);
    if (!entry) return;
    const active = scene.layers.find((l) => l.id === scene.active);
    if (!active) {
      if (create) await this.#addActive(roomId, entry);
      return;
    }
    const result = resultOf(roomId, active.id, entry);
    // The step and channels the layer names are fitted to the entry's result.
    const fitted = namesSteps(active) && result && result.result_id !== active.result?.result_id;
    const counts = fitted ? ((await this.#runs.counts.of(result)) ?? undefined) : undefined;
    if (await this.#same(roomId, active, entry)) {
      // A segment layer shows a surface of the entry's labels volume: its own run sets that result.
      if (active.source.segment !== undefined) return;
      // A layer this host is computing sets its own result, with what made it: the entry came first.
      if (this.#runs.running(roomId, active.id)) return;
      // An edited labels layer over the entry's result shows its version, not the base.
      const editedOver = editedFrom(active.result?.provenance)?.base_result === result?.result_id;
      if (result && !editedOver && active.result?.result_id !== result.result_id)
        await store.setResult(roomId, active.id, active.source, { ...result, ...(await this.#ownFields(roomId, entry)) }, undefined, counts);
      return;
    }
    const told = result ? { ...result, ...(await this.#ownFields(roomId, entry)) } : undefined;
    const write = await store.update(roomId, replaceSource(roomId, active.id, active.source, sourceOf(entry), defaultKind(entry.type), told, counts));
    await this.#runs.settle(roomId, write);
  }

  /** A scene without an active layer gets the entry as a layer on top, made active. */
  async #addActive(roomId: string, entry: RoomEntry): Promise<void> {
    const source = sourceOf(entry);
    const own = await this.#ownFields(roomId, entry);
    const write = await this.#deps.store.update(roomId, (current) => {
      if (current.active !== null) return null;
      const id = makeLayerId(source, new Set(current.layers.map((l) => l.id)));
      const result = resultOf(roomId, id, entry);
      return addLayer(roomId, { id, source, kind: defaultKind(entry.type), ...(result ? { result: { ...result, ...own } } : {}) })(current);
    });
    await this.#runs.settle(roomId, write);
  }
}
