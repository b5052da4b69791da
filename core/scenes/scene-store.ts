/**
 * @module scene-store
 * Where rooms' scenes are kept, one interface for every home: a host's memory
 * (memory-scene-store.ts), a lone host's data folder (disk-scene-store.ts) and a Redis service
 * (redis-scene-store.ts), which every host of the service reads and writes and which survives
 * their restarts. Each change is one of the pure ops of scene-ops.ts applied atomically: it
 * moves `version` up by one, appends its entry to the room's log in the same write, and sends
 * the whole scene as the room's `scene` event, in the order the changes were made; or it
 * changes nothing at all (a stale expected version, an error of the op). Concurrent writers on
 * any number of hosts never lose a change and never reuse a version.
 */
import type { LayerKind, LayerResult, RoomScene } from '../wire/scene-types.ts';
import { createHostError } from '../errors.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub, HostEvent } from '../events/event-hub.ts';
import { layerChanged, sceneChanged } from '../history/room-changes.ts';
import type { LogChange } from '../history/room-log-store.ts';
import type { LayerChange } from './check-layer.ts';
import type { StepCounts } from './layer-steps.ts';
import { addLayer, patchLayer, removeLayer, replaceLayers, setActive, setLayerResult, type LayerDraft, type SceneOp } from './scene-ops.ts';

/** A change made: the scene before and after it (the same when nothing changed). */
export interface SceneWrite {
  before: RoomScene;
  scene: RoomScene;
  changed: boolean;
}

/** The room's `scene` event, as every home sends it: the whole scene after the change. */
export function sceneEvent(scene: RoomScene): HostEvent & { event: 'scene' } {
  return { event: 'scene', data: scene };
}

/** Sends `scene` as the room's `scene` event to this host's streams of the room (the memory and disk homes). */
export function announceScene(hub: Pick<EventHub, 'publish'>, roomId: string, scene: RoomScene): void {
  hub.publish(roomChannel(roomId), sceneEvent(scene));
}

export interface SceneStore {
  /** The room's scene (version 0, no layers, when it never had one). */
  get(roomId: string): Promise<RoomScene>;
  /** Replaces every layer; with `expected`, only while the scene is still at that version (else 412). */
  replace(roomId: string, layers: LayerDraft[], active?: string | null, expected?: number): Promise<SceneWrite>;
  /** Adds a layer on top or at `index` (409 when its id is taken, 400 past the limit). */
  add(roomId: string, layer: LayerDraft, index?: number): Promise<SceneWrite>;
  /** Merges a change into a layer (404 when unknown). */
  patch(roomId: string, layerId: string, change: LayerChange, expected?: number): Promise<SceneWrite>;
  /** Removes a layer (404 when unknown). */
  remove(roomId: string, layerId: string): Promise<SceneWrite>;
  /** Makes a layer (or none) the active one. */
  setActive(roomId: string, layerId: string | null): Promise<SceneWrite>;
  /** Sets a layer's result if it still shows `source` (its `t` and `channels` fitted to `counts` when given). */
  setResult(roomId: string, layerId: string, source: LayerDraft['source'], result: LayerResult, kind?: LayerKind, counts?: StepCounts): Promise<SceneWrite>;
  /** Applies any op atomically. */
  update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite>;
  /** Every room's scene that has layers, in no particular order (what holds published specimens reads them all). */
  everyScene(): AsyncIterable<RoomScene>;
  close(): void;
}

/** What a change is logged as, made once the scene before and after it are known. */
export type SceneEntry = (before: RoomScene, scene: RoomScene) => LogChange;

const wholeScene: SceneEntry = (_before, scene) => sceneChanged(scene);
const oneLayer =
  (op: string, layerId: string | null): SceneEntry =>
  (before, scene) =>
    layerChanged(op, layerId, before, scene);

/** `op` applied to `before`: the scene at the next version, or no change. @throws the 412 of a stale `expected` */
export function applyOp(before: RoomScene, op: SceneOp, expected: number | undefined): SceneWrite {
  if (expected !== undefined && expected !== before.version) throw createHostError('SPC_ERR_SCENE_VERSION', String(expected), String(before.version));
  const after = op(structuredClone(before));
  if (!after) return { before, scene: before, changed: false };
  return { before, scene: { version: before.version + 1, layers: after.layers, active: after.active }, changed: true };
}

/** The named changes, each one op applied by the home: what every home shares. */
export abstract class OpSceneStore implements SceneStore {
  abstract get(roomId: string): Promise<RoomScene>;
  /** Applies `op` atomically; a change made is appended to the room's log as `entry` makes it, in the same write. */
  protected abstract apply(roomId: string, op: SceneOp, expected: number | undefined, entry: SceneEntry): Promise<SceneWrite>;
  abstract everyScene(): AsyncIterable<RoomScene>;
  abstract close(): void;

  update(roomId: string, op: SceneOp, expected?: number): Promise<SceneWrite> {
    return this.apply(roomId, op, expected, wholeScene);
  }

  replace(roomId: string, layers: LayerDraft[], active?: string | null, expected?: number): Promise<SceneWrite> {
    return this.update(roomId, replaceLayers(roomId, layers, active), expected);
  }

  add(roomId: string, layer: LayerDraft, index?: number): Promise<SceneWrite> {
    return this.apply(roomId, addLayer(roomId, layer, index), undefined, oneLayer('add', null));
  }

  patch(roomId: string, layerId: string, change: LayerChange, expected?: number): Promise<SceneWrite> {
    return this.apply(roomId, patchLayer(roomId, layerId, change), expected, oneLayer('change', layerId));
  }

  remove(roomId: string, layerId: string): Promise<SceneWrite> {
    return this.apply(roomId, removeLayer(roomId, layerId), undefined, oneLayer('remove', layerId));
  }

  setActive(roomId: string, layerId: string | null): Promise<SceneWrite> {
    return this.update(roomId, setActive(roomId, layerId));
  }

  setResult(roomId: string, layerId: string, source: LayerDraft['source'], result: LayerResult, kind?: LayerKind, counts?: StepCounts): Promise<SceneWrite> {
    return this.apply(roomId, setLayerResult(layerId, source, result, kind, counts), undefined, oneLayer('result', layerId));
  }
}
