/**
 * @module shown-versions
 * An edited labels layer names its current version as its result: after each edit, off the
 * edit's own path, the version's id is worked out (from the chunks that differ from the base:
 * its voxels are not made for it) and set as the layer's `result` in the room's scene, whose
 * `scene` event tells every follower. Its data URL reads that very version, and its provenance
 * is the base result's with the base result's id and the edits over it by log seq. Per layer one
 * run at a time: edits made meanwhile are taken together by the next run, which names the
 * version current then; a version named late never replaces a later one (scene-ops.ts). While
 * edits stream in ahead of their records, a naming is skipped for the next edit kept (up to a
 * second): the version is named once the edits ahead are kept.
 */
import type { SceneStore } from '../../scenes/scene-store.ts';
import type { RoomScenes } from '../../scenes/service/room-scenes.ts';
import type { LayerResult } from '../../wire/scene-types.ts';
import type { EditRecord } from '../../wire/edit-types.ts';
import { editedFrom, type LayerProvenance } from '../../wire/provenance-types.ts';
import { provenanceHeader } from '../../versions/provenance.ts';
import type { NamedVersion } from './layer-versions.ts';

export interface ShownVersionsDeps {
  /** The id of the layer's labels at `version` (absent: the current one). */
  namedAt(roomId: string, layerId: string, version?: number): Promise<NamedVersion>;
  /** The current version as the layer's result names it, or null when not now (an edit kept later asks again). */
  namedNow(roomId: string, layerId: string): Promise<NamedVersion | null>;
  scenes: Pick<RoomScenes, 'scene'>;
  store: Pick<SceneStore, 'setResult'>;
  warn: (message: string, err: unknown) => void;
}

/** Where version `version` of a layer's labels is read, as `/data` sends a result. */
export function versionDataUrl(roomId: string, layerId: string, version: number): string {
  return `/api/rooms/${encodeURIComponent(roomId)}/layers/${encodeURIComponent(layerId)}/labels?version=${version}`;
}

/** The base result's provenance (`made`, when known) with the base's id and the edits over it. */
export function versionProvenance(made: LayerProvenance | undefined, baseId: string, records: readonly EditRecord[]): LayerProvenance | undefined {
  if (records.length === 0) return made;
  const { base_result: _base, edits: _edits, ...own } = made ?? {};
  return { ...own, base_result: baseId, edits: records.map((record) => record.seq) } as LayerProvenance;
}

/** Edit seqs the `Vitrine-Provenance` header lists, at most; past that it says how many. */
const HEADER_EDITS = 100;

/**
 * The `Vitrine-Provenance` header of an edited layer's version: what made its base, as a
 * computed result says it (when a plugin did), then `base=<12 hex of the base result's id>;
 * edits=<seq>,<seq>,...` (past 100 edits, `edits=<how many>`); null for a result neither made.
 */
export function versionHeader(provenance: LayerProvenance | undefined): string | null {
  if (!provenance) return null;
  const made = 'function' in provenance ? provenanceHeader(provenance) : null;
  const edited = editedFrom(provenance);
  if (!edited) return made;
  const edits = edited.edits.length > HEADER_EDITS ? String(edited.edits.length) : edited.edits.join(',');
  return `${made ? `${made}; ` : ''}base=${edited.base_result.slice(0, 12)}; edits=${edits}`;
}

export class ShownVersions {
  #deps: ShownVersionsDeps;
  /** Layers being named, and whether an edit came meanwhile. */
  #running = new Map<string, { again: boolean }>();

  constructor(deps: ShownVersionsDeps) {
    this.#deps = deps;
  }

  /** Layer `layerId` of room `roomId` has a new version: named as its result soon, in the background. */
  changed(roomId: string, layerId: string): void {
    const key = JSON.stringify([roomId, layerId]);
    const running = this.#running.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.#running.set(key, state);
    void (async () => {
      try {
        while (state.again) {
          state.again = false;
          await this.show(roomId, layerId).catch((err: unknown) =>
            this.#deps.warn(`the current version of layer '${layerId}' of room '${roomId}' could not be named`, err),
          );
        }
      } finally {
        this.#running.delete(key);
      }
    })();
  }

  /** Names the layer's current version as its result in the room's scene. */
  async show(roomId: string, layerId: string): Promise<void> {
    const { namedAt, namedNow, scenes, store } = this.#deps;
    const current = await namedNow(roomId, layerId);
    if (!current) return;
    const baseId = (await namedAt(roomId, layerId, 0)).id;
    const layer = (await scenes.scene(roomId)).layers.find((l) => l.id === layerId);
    if (!layer) return;
    const shown = layer.result;
    const provenance = versionProvenance(shown?.provenance, baseId, current.records);
    const result: LayerResult = {
      result_id: current.id,
      type: 'volume',
      data_url: current.version === 0 && shown ? shown.data_url : versionDataUrl(roomId, layerId, current.version),
      blob_id: current.id,
      ...(shown?.levels ? { levels: true as const } : {}),
      ...(provenance ? { provenance } : {}),
    };
    await store.setResult(roomId, layerId, layer.source, result);
  }
}
