/**
 * @module room-snapshots
 * Snapshots of rooms: a content-addressed, immutable record of a room's scene, view and
 * annotations, each layer's result named by its blob id (`data_url` is the blob's URL, the same
 * bytes forever), except a static file no parser reads: the host holds no result of it, so the
 * snapshot names the specimen's file (its `/data`), which lies on disk as long as the specimen
 * does, and pins nothing for it. Taking one computes (or takes from the cache) every layer's result, pins
 * those results for `--snapshot-ttl`, and stores the document under the SHA-256 of its
 * canonical JSON (keys sorted), so the same room taken twice unchanged is the same snapshot.
 * It opens in the viewer at `/?snapshot=<id>`; `PUT .../scene {"snapshot": id}` restores its
 * scene and view into a room (each layer then computed again from its source).
 */
import { boundFrame } from '../annotations/layer-frame.ts';
import { renderStableJson } from '../annotations/chunked-render.ts';
import { createHash } from 'node:crypto';
import type { LayerResult, RoomScene, SceneLayer, SnapshotCreated } from '../client/scene-types.ts';
import type { SnapshotDocument } from '../client/wire-types.ts';
import { createHostError, isHostError } from '../errors.ts';
import { stableJson } from '../params/stable-json.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultPins, SnapshotStore } from '../snapshots/snapshot-store.ts';
import { COMPUTATION_FAILURES, slotOf } from './layer-runs.ts';
import { asIsFileResult } from './file-layers.ts';
import { obtainLayerResult, resolveLayerSource, type LayerSourceDeps } from './layer-sources.ts';
import type { RoomScenes } from './room-scenes.ts';
import { VIEW_FIELDS, type ViewChange } from '../rooms/room-view.ts';
import type { RoomWorkspace } from './room-workspace.ts';

/** A snapshot as the host answers it: the document's bytes as hashed, its id, and when it was first taken (ms since the epoch). */
export interface StoredSnapshot {
  id: string;
  json: string;
  created: number;
}

export interface SnapshotDeps {
  store: SnapshotStore;
  pins: ResultPins;
  scenes: Pick<RoomScenes, 'scene' | 'restore'>;
  rooms: Pick<RoomWorkspace, 'view' | 'changeView'>;
  sources: LayerSourceDeps;
  ttlSeconds: number;
}

export class RoomSnapshots {
  #deps: SnapshotDeps;

  constructor(deps: SnapshotDeps) {
    this.#deps = deps;
  }

  /**
   * Each layer with its result, computed (or taken from the cache) now, named by its blob. A
   * layer whose function fails is recorded as the room shows it: without a result.
   */
  async #layers(roomId: string, scene: RoomScene): Promise<{ layers: SceneLayer[]; results: StoredResult[] }> {
    const { sources } = this.#deps;
    const outcomes = await Promise.all(
      scene.layers.map(async (layer) => {
        const frame = boundFrame(scene.layers, layer.id);
        const resolved = await resolveLayerSource(sources, roomId, slotOf(roomId, scene, layer.id), layer.source, `layers.${layer.id}`, undefined, frame);
        // A file no parser reads is referred to where it lies: the host has no result of it to pin.
        if (resolved.kind === 'file') return { file: await asIsFileResult(resolved.record, resolved.type) };
        return obtainLayerResult(sources, resolved).catch((error: unknown) => {
          if (isHostError(error) && (COMPUTATION_FAILURES as readonly string[]).includes(error.code)) return null;
          throw error;
        });
      }),
    );
    const layers = scene.layers.map((layer, i) => {
      const { result: _shown, ...rest } = layer;
      const outcome = outcomes[i];
      if (!outcome) return rest as SceneLayer;
      if ('file' in outcome) return { ...rest, result: outcome.file };
      const recorded: LayerResult = {
        result_id: outcome.resultId,
        type: outcome.result.type,
        data_url: `/api/blobs/${outcome.resultId}`,
        blob_id: outcome.resultId,
      };
      return { ...rest, result: recorded };
    });
    return { layers, results: outcomes.flatMap((o) => (o && !('file' in o) ? [o.result] : [])) };
  }

  /** `POST .../snapshots`. */
  async create(roomId: string): Promise<SnapshotCreated> {
    const { store, pins, scenes, rooms, sources, ttlSeconds } = this.#deps;
    const [scene, view, { annotations }] = await Promise.all([scenes.scene(roomId), rooms.view(roomId), sources.annotations.list(roomId)]);
    const { layers, results } = await this.#layers(roomId, scene);
    // Keys sorted, `annotations` first: the marks' canonical JSON is made a batch at a time, each mark's kept.
    const rest = stableJson({ scene: { layers, active: scene.active }, view });
    const json = `{"annotations":${await renderStableJson(annotations)},${rest.slice(1)}`;
    const id = createHash('sha256').update(json).digest('hex');
    const ttlMs = ttlSeconds * 1000;
    const known = await store.get(id);
    const pinned = await pins.pin(id, results, ttlMs);
    try {
      await store.put(id, { json, created: known?.created ?? Date.now(), pins: pinned }, ttlMs);
    } catch (error) {
      // Refused: the results pinned for it are let go, unless an earlier take still keeps them.
      if (!known) pins.release?.(id);
      throw error;
    }
    return { id, url: `/?snapshot=${id}` };
  }

  /**
   * The snapshot: `json`, the very bytes its id hashes, and when it was first taken; 404 when
   * unknown or expired, 410 when its bytes were lost although pinned.
   */
  async get(id: string): Promise<StoredSnapshot> {
    const record = await this.#deps.store.get(id);
    if (!record) throw createHostError('SPC_ERR_SNAPSHOT_NOT_FOUND', id);
    if (!(await this.#deps.pins.intact(id, record.pins))) {
      throw createHostError(
        'SPC_ERR_SNAPSHOT_LOST',
        id,
        "the bytes of one of its layers were dropped (the host's memory budget or the blob store let them go before their time)",
      );
    }
    return { id, json: record.json, created: record.created };
  }

  /** `PUT .../scene {"snapshot": id}`: the snapshot's scene, view and annotations become the room's. */
  async restore(roomId: string, id: string, ifMatch?: number): Promise<RoomScene> {
    const snapshot = JSON.parse((await this.get(id)).json) as SnapshotDocument;
    const scene = await this.#deps.scenes.restore(roomId, snapshot.scene, ifMatch);
    // The marks first were the scene's to bind: a layer bound to points computes with the snapshot's.
    await this.#deps.sources.annotations.replace(roomId, snapshot.annotations);
    const change: ViewChange = {};
    for (const field of VIEW_FIELDS) (change as Record<string, unknown>)[field] = snapshot.view[field] ?? null;
    await this.#deps.rooms.changeView(roomId, change);
    return scene;
  }
}
