/**
 * @module room-scenes
 * Rooms' scenes as the routes and tools change them: each request checked field by field and
 * its sources resolved as `/data` would (a 4xx names the field), then one atomic change of the
 * store (which sends the `scene` event), then the layers computed in the background
 * (layer-runs.ts: `computing`, then `result` or `failed`, each naming its layer, and the
 * layer's `result` set in the scene). A layer's `t` and `channels` are checked against the
 * result it shows (layer-steps.ts); a change that moves the points a bound layer takes (a new
 * affine: moved-points.ts), or a change of the room's marks ({@link RoomScenes.marksChanged}),
 * has it computed again at the pace of this service's point binder. The room's entry and the
 * active layer stay one (entry-link.ts): this service hears every change of a room's entry on
 * its host's event hub.
 * Each layer a request adds or changes records who made it (`by`: the request's user, or
 * `anonymous`), never what a body says.
 */
import { computedProvenance } from '../../wire/provenance-types.ts';
import { boundFrame } from '../../annotations/layer-frame.ts';
import { PointBinder } from '../../annotations/point-binder.ts';
import type { LayerKind, LayerSource, RoomScene, SceneLayer } from '../../wire/scene-types.ts';
import type { RoomEntry } from '../../wire/room-types.ts';
import { asRoomsOwn, madeByActing } from '../../events/acting-user.ts';
import { ROOM_CHANNEL_PREFIX } from '../../events/channels.ts';
import type { EventHub } from '../../events/event-hub.ts';
import { layerSlot } from '../../events/layer-slots.ts';
import { bad } from '../check-display.ts';
import { checkLayer, checkLayerChange, checkSceneInput, type LayerChange, type LayerInput } from '../check-layer.ts';
import { sameSource } from '../check-source.ts';
import { checkLayerSteps, namesSteps, type StepFields } from '../layer-steps.ts';
import { fitSteps, type LayerDraft } from '../scene-ops.ts';
import type { SceneWrite } from '../scene-store.ts';
import { EntryLink } from './entry-link.ts';
import { isBound, movedBoundLayers } from './moved-points.ts';
import { LayerRuns, slotOf, type ResolvedLayers, type SceneDeps } from './layer-runs.ts';
import { checkKindFits, defaultKind, kindFits, resolveLayerSource, staleOutcome, type LayerOutcome, type ResolvedSource } from './layer-sources.ts';
import type { RequestAsk } from '../../request/specimen-request.ts';
import { createHostError } from '../../errors.ts';
import type { EntryScenes } from '../../rooms/service/room-workspace.ts';

/** A scene a snapshot recorded: its layers bottom first and its active layer. */
export type RecordedScene = Omit<RoomScene, 'version'>;

/** The delivery a layer's data is asked with, as a `/data` request's. */
type LayerDelivery = NonNullable<RequestAsk['delivery']>;

export class RoomScenes implements EntryScenes {
  #deps: SceneDeps;
  #runs: LayerRuns;
  #link: EntryLink;
  #binder: PointBinder;
  #untap: () => void;

  constructor(deps: SceneDeps, hub: EventHub) {
    this.#deps = deps;
    this.#runs = new LayerRuns(deps);
    this.#link = new EntryLink(deps, this.#runs);
    this.#binder = new PointBinder(this, {
      onError: (room, err) => deps.log.warn({ room, err }, `layers bound to the points of room '${room}' could not be computed again`),
    });
    // A `result` without a layer is the room's entry changing, whoever changed it and on whichever host.
    this.#untap = hub.tap((channel, event) => {
      if (event.event !== 'result' || !channel.startsWith(ROOM_CHANNEL_PREFIX)) return;
      if ((event.data as { layer?: unknown } | null)?.layer !== undefined) return;
      this.#link.changed(channel.slice(ROOM_CHANNEL_PREFIX.length));
    });
  }

  scene(roomId: string): Promise<RoomScene> {
    return this.#deps.store.get(roomId);
  }

  /**
   * A layer as the request gives it, its kind decided, and its source resolved (once: its run
   * takes it). A stale layer given again as it is (`kept`: same id and source) is not resolved:
   * its source no longer resolves, and it keeps showing its last result.
   */
  async #draft(roomId: string, input: LayerInput, path: string, kept?: SceneLayer): Promise<{ draft: LayerDraft; resolved?: ResolvedSource }> {
    if (kept?.stale && input.id === kept.id && sameSource(input.source, kept.source)) return { draft: { ...input, kind: input.kind ?? kept.kind } };
    const resolved = await resolveLayerSource(this.#deps.sources, roomId, layerSlot(roomId, input.id ?? '_'), input.source, path);
    if (input.kind) checkKindFits(input.kind, resolved.type, `${path}.kind`);
    return { draft: { ...input, kind: input.kind ?? defaultKind(resolved.type) }, resolved };
  }

  /** `PUT .../scene` with layers (or a snapshot's scene, restored by the caller). */
  async replace(roomId: string, body: unknown, ifMatch?: number): Promise<RoomScene> {
    const input = checkSceneInput(body);
    if ('snapshot' in input) throw bad('snapshot', 'is restored by the snapshots service');
    const before = await this.#deps.store.get(roomId);
    const had = (id: string | undefined) => before.layers.find((l) => l.id === id);
    const asked = await Promise.all(input.layers.map((layer, i) => this.#draft(roomId, layer, `layers[${i}]`, had(layer.id))));
    // A layer that keeps its id and source keeps its result: the step and channels it names are checked against it.
    const stepping = input.layers.filter((layer) => namesSteps(layer));
    await Promise.all(stepping.map((layer) => this.#checkSteps(layer, had(layer.id), layer.source, `layers[${input.layers.indexOf(layer)}]`)));
    const write = await this.#deps.store.replace(roomId, asked.map((a) => madeByActing(a.draft)), input.active, ifMatch);
    // The scene keeps the order given: the i-th layer stored is the i-th asked for.
    const chosen = write.scene.layers.filter((_, i) => input.layers[i]?.kind !== undefined).map((layer) => layer.id);
    const resolved = write.scene.layers.flatMap((layer, i) => (asked[i]?.resolved ? [[layer.id, asked[i]!.resolved!] as const] : []));
    await this.#settle(roomId, write, new Set(chosen), new Map(resolved));
    if (stepping.length > 0) await this.#fitSteps(roomId, write.scene, write.scene.layers.map((layer) => layer.id));
    return write.scene;
  }

  /**
   * Restores a recorded scene: its layers and active layer. A layer recorded with its result
   * (the caller keeps it only while the host holds its bytes) shows it as it is; the others are
   * computed again from their sources.
   */
  async restore(roomId: string, recorded: RecordedScene, ifMatch?: number): Promise<RoomScene> {
    // Restoring is a change made now: each layer it changes is the restorer's.
    const drafts = recorded.layers.map((layer) => madeByActing(layer as LayerDraft));
    const write = await this.#deps.store.replace(roomId, drafts, recorded.active, ifMatch);
    await this.#runs.settle(roomId, write, new Set(drafts.map((d) => d.id!)));
    return write.scene;
  }

  /** `POST .../layers`: the layer as stored. */
  async add(roomId: string, body: unknown, index?: number): Promise<SceneLayer> {
    const input = checkLayer(body, 'layer');
    const { draft, resolved } = await this.#draft(roomId, input, 'layer');
    const write = await this.#deps.store.add(roomId, madeByActing(draft), index);
    const before = new Set(write.before.layers.map((layer) => layer.id));
    const added = write.scene.layers.find((layer) => !before.has(layer.id))!;
    await this.#settle(roomId, write, new Set(input.kind ? [added.id] : []), new Map(resolved ? [[added.id, resolved]] : []));
    return added;
  }

  /** `PATCH .../layers/{id}`: the layer as stored after the change. */
  async patch(roomId: string, layerId: string, body: unknown, ifMatch?: number): Promise<SceneLayer> {
    const change = checkLayerChange(body, layerId);
    const steps = namesSteps(change.display);
    // Only a new source or kind, or a step or channels (checked against the result), need the layer as it is.
    const current =
      change.source || change.kind || steps ? (await this.#deps.store.get(roomId)).layers.find((layer) => layer.id === layerId) : undefined;
    const checked = steps && (await this.#checkSteps(change.display, current, change.source, 'layer'));
    let kindFromResult = false;
    let resolved: ResolvedSource | undefined;
    if (current && (change.source || change.kind)) {
      const source = change.source ?? current.source;
      resolved = await resolveLayerSource(this.#deps.sources, roomId, layerSlot(roomId, layerId), source, 'layer');
      if (change.kind) checkKindFits(change.kind, resolved.type, 'layer.kind');
      else if (change.source && !sameSource(change.source, current.source)) {
        change.kind = kindFits(current.kind, resolved.type) ? current.kind : defaultKind(resolved.type);
        kindFromResult = true;
      }
    }
    const write = await this.#deps.store.patch(roomId, layerId, madeByActing(change as LayerChange & { kind?: LayerKind }), ifMatch);
    await this.#settle(roomId, write, kindFromResult ? new Set() : new Set([layerId]), resolved && new Map([[layerId, resolved]]));
    // Taken while its result was not known: a result set meanwhile has it fitted now.
    const scene = steps && !checked ? await this.#fitSteps(roomId, write.scene, [layerId]) : write.scene;
    return scene.layers.find((layer) => layer.id === layerId)!;
  }

  /**
   * Checks the `t` and `channels` given for layer `old` against the result it shows while that
   * is known (not when `source` replaces its own: the new result is not). True when checked.
   * @throws SPC_ERR_SCENE_INVALID naming `<path>.t` or `<path>.channels`.
   */
  async #checkSteps(display: StepFields, old: SceneLayer | undefined, source: LayerSource | undefined, path: string): Promise<boolean> {
    if (!namesSteps(display) || !old?.result || (source && !sameSource(source, old.source))) return false;
    const counts = await this.#runs.counts.of(old.result);
    if (!counts) return false;
    checkLayerSteps(display, counts, path);
    return true;
  }

  /** Fits the step and channels of layers `ids` of `scene` to the results they show, where known; the scene after. */
  async #fitSteps(roomId: string, scene: RoomScene, ids: readonly string[]): Promise<RoomScene> {
    let last = scene;
    for (const layer of scene.layers) {
      if (!ids.includes(layer.id) || !layer.result || !namesSteps(layer)) continue;
      const counts = await this.#runs.counts.of(layer.result);
      if (!counts) continue;
      const write = await this.#deps.store.update(roomId, fitSteps(layer.id, layer.result, counts));
      if (write.changed) last = write.scene;
    }
    return last;
  }

  /** `DELETE .../layers/{id}`. */
  async remove(roomId: string, layerId: string): Promise<void> {
    const write = await this.#deps.store.remove(roomId, layerId);
    await this.#settle(roomId, write);
  }

  /**
   * What follows a change of the scene made here: its layers computed (layer-runs.ts), and the
   * bound layers whose points it moved (a new affine) computed again, at the binder's pace.
   */
  async #settle(roomId: string, write: SceneWrite, explicitKinds?: ReadonlySet<string>, resolved?: ResolvedLayers): Promise<void> {
    await this.#runs.settle(roomId, write, explicitKinds, resolved);
    if (!write.changed) return;
    const moved = await movedBoundLayers(this.#deps.sources.annotations, roomId, write.before, write.scene).catch((error: unknown) => {
      this.#deps.log.warn({ room: roomId, err: error }, 'the points of bound layers could not be read after a change of the scene');
      return [];
    });
    if (moved.length > 0) this.#binder.changed(roomId, moved);
  }

  /** The room's marks changed on this host: the layers bound to its points are computed again, at the binder's pace. */
  marksChanged(roomId: string): void {
    this.#binder.changed(roomId);
  }

  /**
   * A layer's source resolved as `/data` would, in its cache slot (the room's own for the active
   * layer), with `delivery` (the picture's layers).
   */
  async layerData(roomId: string, layerId: string, delivery: LayerDelivery): Promise<ResolvedSource> {
    const scene = await this.#deps.store.get(roomId);
    return this.#resolveLayer(roomId, scene, this.#layerOf(roomId, scene, layerId), delivery);
  }

  /**
   * What `GET .../layers/{id}/data` sends: a stale layer's last result while the host holds it
   * (its source no longer gives it), else the layer's source resolved as `layerData` does.
   */
  async layerAnswer(roomId: string, layerId: string, delivery: LayerDelivery): Promise<{ held: LayerOutcome } | { resolved: ResolvedSource }> {
    const scene = await this.#deps.store.get(roomId);
    const layer = this.#layerOf(roomId, scene, layerId);
    const held = await staleOutcome(this.#deps.sources, layer);
    return held ? { held } : { resolved: await this.#resolveLayer(roomId, scene, layer, delivery) };
  }

  #layerOf(roomId: string, scene: RoomScene, layerId: string): SceneLayer {
    const layer = scene.layers.find((l) => l.id === layerId);
    if (!layer) throw createHostError('SPC_ERR_LAYER_NOT_FOUND', layerId, roomId);
    return layer;
  }

  /** The room's own layer resolved: what whoever put it there was checked for (a specimen's room's access) is not asked again. */
  #resolveLayer(roomId: string, scene: RoomScene, layer: SceneLayer, delivery: LayerDelivery): Promise<ResolvedSource> {
    const frame = boundFrame(scene.layers, layer.id);
    return asRoomsOwn(() => resolveLayerSource(this.#deps.sources, roomId, slotOf(roomId, scene, layer.id), layer.source, 'layer', delivery, frame));
  }

  /**
   * Computes again the layers whose source binds parameters to the room's points (they changed):
   * those of `layerIds` when given (their frames moved), else every one (the marks changed).
   */
  async recomputeBound(roomId: string, layerIds?: readonly string[]): Promise<void> {
    const scene = await this.#deps.store.get(roomId);
    const bound = scene.layers.filter((layer) => isBound(layer) && (!layerIds || layerIds.includes(layer.id))).map((layer) => layer.id);
    if (bound.length > 0) this.#runs.recompute(roomId, scene, bound);
  }

  /**
   * A reload brought new versions of `plugins`: each layer computed by one of them that pins no
   * version is computed again with the newest (its followers get `computing` and `result`).
   */
  async followNewest(plugins: ReadonlySet<string>): Promise<void> {
    for (const roomId of [...this.#runs.rooms]) {
      const scene = await this.#deps.store.get(roomId);
      const following = scene.layers.filter((l) => l.source.version === undefined && plugins.has(computedProvenance(l.result?.provenance)?.plugin ?? ''));
      if (following.length > 0) this.#runs.recompute(roomId, scene, following.map((l) => l.id));
    }
  }

  /** The rooms this host computed layers for, by the bundle id that made each layer's result. */
  async roomsByBundle(): Promise<Map<string, string[]>> {
    const rooms = new Map<string, string[]>();
    for (const roomId of [...this.#runs.rooms]) {
      const { layers } = await this.#deps.store.get(roomId);
      const bundles = new Set(layers.map((l) => computedProvenance(l.result?.provenance)?.bundle).filter((b) => b !== undefined));
      for (const bundle of bundles as Set<string>) rooms.set(bundle, [...(rooms.get(bundle) ?? []), roomId]);
    }
    return rooms;
  }

  shown(roomId: string): Promise<void> {
    return this.#link.shown(roomId);
  }

  activeEntry(roomId: string): Promise<RoomEntry | null> {
    return this.#link.activeEntry(roomId);
  }

  close(): void {
    this.#untap();
    this.#binder.close();
    this.#runs.stopAll();
    this.#deps.store.close();
  }
}
