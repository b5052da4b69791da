/**
 * @module labels-editing
 * Edits of rooms' labels layers, as the routes, the agent and MCP make them. A layer is loaded
 * once per host: its base result (the layer's result as computed), a chunked volume over it,
 * and every kept edit applied again in version order. Each layer's work runs one at a time:
 * read what other hosts kept since (a Redis service), plan the edit on the layer as it is,
 * keep it (with its log entry and event, at the version it was planned on; when another host
 * came first, read its edits and plan again) and only then apply it. Any version's labels are
 * the layer now with every later edit written back, answered as a volume result of its own:
 * its voxels put together on a worker thread from the volume frozen in the layer's turn (edits go
 * on meanwhile, and no answer or /healthz waits on a whole-volume copy), made once per version
 * and held in the host's result budget for the room (so the routes that
 * find a result by its id, the OME-Zarr store, meshes and exports, find it, with the room's
 * access), and made again only once the budget let it go. A version's id is known without its
 * voxels: it is named from the base's id and the chunks that differ from the base
 * (version-name.ts), and its voxels are made only when something reads them (found by that id,
 * they are made then).
 */
import type { ResultBudget } from '../../cache/result-budget.ts';
import { createHostError } from '../../errors.ts';
import type { RoomScenes } from '../../scenes/service/room-scenes.ts';
import type { SceneStore } from '../../scenes/scene-store.ts';
import { editedFrom, type LayerProvenance } from '../../wire/provenance-types.ts';
import { obtainLayerResult, type LayerSourceDeps } from '../../scenes/service/layer-sources.ts';
import { isLabelDType } from '../../results/label-fields.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import type { SceneLayer } from '../../wire/scene-types.ts';
import { checkEdit } from '../check-edit.ts';
import type { EditStore } from '../edit-store.ts';
import type { EditAnswer, EditRecord, LabelEdit, ListedEdit } from '../../wire/edit-types.ts';
import { LayerEdits } from '../layer-edits.ts';
import { tableFields, tablesOf } from '../label-tables.ts';
import { LabelVolume, type LabelArray, type LabelDtype } from '../label-volume.ts';
import type { VersionVoxelsRunner } from '../version-voxels.ts';
import type { VersionRegionRunner } from '../version-region.ts';
import { ChunkDigests } from '../version-name.ts';
import { LayerVersions, type DerivedVersions, type LoadedLayer, type NamedVersion, type StoredVolume } from './layer-versions.ts';
import { ShownVersions, versionProvenance } from './shown-versions.ts';
import { VersionRegions } from './version-regions.ts';
import type { LabelIndex } from '../../labels/label-index.ts';
import type { RegionLabels } from '../../meshes/region-labels.ts';


/** A page of a layer's edits, as the log pages. */
export interface EditPage {
  edits: ListedEdit[];
  next_since: number;
  more: boolean;
}

export interface EditingDeps {
  scenes: Pick<RoomScenes, 'scene' | 'layerData'>;
  sources: LayerSourceDeps;
  store: EditStore;
  /** Holds each version's result while the host has room for it. */
  budget: Pick<ResultBudget<StoredResult>, 'hold' | 'holds'>;
  /** Puts a version's voxels, or a box of them, together off the event loop (the encode pool). */
  assemble: VersionVoxelsRunner & VersionRegionRunner;
  /** Where the layer's current version is set as its result, once its id is known. */
  sceneStore: Pick<SceneStore, 'setResult'>;
  warn: (message: string, err: unknown) => void;
  /** Told, of each version made, which earlier one it is with which segments changed (the surfaces' level sets follow it). */
  versions?: DerivedVersions;
  /** A base result's label index (what each version's is found from). */
  labelIndex(volume: StoredVolume, client: string): Promise<LabelIndex>;
}

/** Edits a host retries planning while other hosts keep coming first. */
const ATTEMPTS = 100;
/** Edits in one page of the list, at most. */
const MAX_PAGE = 10_000;

/** The shape of a labels volume as z, y, x: time and channel axes of one step only. */
function gridOf(volume: StoredVolume): [number, number, number] | null {
  const shape = [...volume.shape];
  while (shape.length > 3 && shape[0] === 1) shape.shift();
  while (shape.length < 3) shape.unshift(1);
  return shape.length === 3 ? (shape as [number, number, number]) : null;
}

export class LabelsEditing {
  #deps: EditingDeps;
  #layers = new Map<string, Promise<LoadedLayer>>();
  /** Each layer's work, one at a time. */
  #turns = new Map<string, Promise<unknown>>();
  #versions: LayerVersions;
  #regions: VersionRegions;
  #shown: ShownVersions;
  /** Layers whose carried edits are being made again: their versions are named once, at the end. */
  #replaying = new Set<string>();

  constructor(deps: EditingDeps) {
    this.#deps = deps;
    this.#regions = new VersionRegions({
      inLayer: (roomId, layerId, work) => this.#inTurn(JSON.stringify([roomId, layerId]), async () => work(await this.#load(roomId, layerId))),
      read: deps.assemble,
      baseIndex: deps.labelIndex,
      ...(deps.versions ? { lineage: deps.versions } : {}),
    });
    const { budget, assemble, versions } = deps;
    this.#versions = new LayerVersions({ budget, assemble, resultIds: deps.sources.resultIds, ...(versions ? { versions } : {}), regions: this.#regions });
    this.#shown = new ShownVersions({
      namedAt: (roomId, layerId, version) => this.namedAt(roomId, layerId, version),
      scenes: deps.scenes,
      store: deps.sceneStore,
      warn: deps.warn,
    });
  }

  /** Runs `work` once the layer's earlier work has ended. */
  #inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#turns.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.#turns.set(key, settled);
    void settled.then(() => this.#turns.get(key) === settled && this.#turns.delete(key));
    return run;
  }

  /** The room's layer, a labels layer with a result. @throws 404 unknown layer, 409 not labels */
  async #layerOf(roomId: string, layerId: string): Promise<SceneLayer> {
    const scene = await this.#deps.scenes.scene(roomId);
    const layer = scene.layers.find((l) => l.id === layerId);
    if (!layer) throw createHostError('SPC_ERR_LAYER_NOT_FOUND', layerId, roomId);
    if (layer.kind !== 'labels') throw createHostError('SPC_ERR_EDIT_NOT_LABELS', layerId, layer.kind);
    return layer;
  }

  async #baseOf(roomId: string, layer: SceneLayer): Promise<StoredVolume> {
    const { sources } = this.#deps;
    // A layer showing an edited version names its base in its provenance.
    const baseId = editedFrom(layer.result?.provenance)?.base_result ?? layer.result?.result_id;
    const held = baseId ? await sources.resultIds.find(baseId) : null;
    const result = held ?? (await obtainLayerResult(sources, await this.#deps.scenes.layerData(roomId, layer.id, { asked: {}, userAgent: undefined }))).result;
    if (result.type !== 'volume' || !isLabelDType(result.dtype) || !gridOf(result))
      throw createHostError('SPC_ERR_EDIT_NOT_LABELS', layer.id, `${result.type} (not a uint8, uint16 or uint32 segmentation of one step)`);
    return result;
  }

  async #load(roomId: string, layerId: string): Promise<LoadedLayer> {
    const key = JSON.stringify([roomId, layerId]);
    let loading = this.#layers.get(key);
    if (!loading) {
      loading = (async () => {
        const base = await this.#baseOf(roomId, await this.#layerOf(roomId, layerId));
        const volume = new LabelVolume(base.data as LabelArray, gridOf(base)!, base.dtype as LabelDtype);
        const tables = tablesOf(base.label_names, base.label_colors);
        const baseId = this.#deps.sources.resultIds.of(base);
        baseId.catch(() => {});
        const baseTables = JSON.stringify(tableFields(tables, base));
        return { base, edits: new LayerEdits(volume, tables), baseId, baseTables, digests: new ChunkDigests(volume) };
      })();
      this.#layers.set(key, loading);
      loading.catch(() => this.#layers.get(key) === loading && this.#layers.delete(key));
    } else await this.#layerOf(roomId, layerId);
    const loaded = await loading;
    await this.#catchUp(roomId, layerId, loaded.edits);
    return loaded;
  }

  /** Applies the edits kept since the layer's version here (by this host's earlier runs, or another host's). */
  async #catchUp(roomId: string, layerId: string, edits: LayerEdits): Promise<void> {
    for (const record of await this.#deps.store.after(roomId, layerId, edits.version)) {
      if (record.version !== edits.version + 1) continue;
      edits.apply(edits.plan(record.edit), record);
    }
  }

  /** Makes `body` (a client's edit) the layer's next edit. With `ifMatch`, only while the layer is at that version (else 412). */
  edit(roomId: string, layerId: string, body: unknown, ifMatch?: number): Promise<EditAnswer> {
    return this.#inTurn(JSON.stringify([roomId, layerId]), async () => {
      const { edits } = await this.#load(roomId, layerId);
      const edit = checkEdit(body, { shape: edits.volume.shape, dtype: edits.volume.dtype });
      return this.#keep(roomId, layerId, edits, edit, ifMatch);
    });
  }

  /** Undoes (or redoes) edit `seq` as a new edit. */
  reverse(roomId: string, layerId: string, op: 'undo' | 'redo', seq: number, ifMatch?: number): Promise<EditAnswer> {
    return this.#inTurn(JSON.stringify([roomId, layerId]), async () => {
      const { edits } = await this.#load(roomId, layerId);
      return this.#keep(roomId, layerId, edits, { op, seq }, ifMatch);
    });
  }

  async #keep(roomId: string, layerId: string, edits: LayerEdits, edit: LabelEdit, ifMatch: number | undefined): Promise<EditAnswer> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      if (ifMatch !== undefined && ifMatch !== edits.version) throw createHostError('SPC_ERR_EDIT_STALE', String(ifMatch), String(edits.version));
      const planned = edits.plan(edit);
      const { segments, voxels, box } = planned;
      const record = await this.#deps.store.append(roomId, layerId, edits.version, { edit, segments, voxels, box });
      if (!record) {
        // Another host kept an edit first: take it in and plan again on top of it.
        await this.#catchUp(roomId, layerId, edits);
        continue;
      }
      edits.apply(planned, record);
      if (!this.#replaying.has(JSON.stringify([roomId, layerId]))) this.#shown.changed(roomId, layerId);
      return { seq: record.seq, version: record.version, by: record.by, segments, voxels, box };
    }
    throw createHostError('SPC_ERR_EDIT_STALE', String(edits.version), 'a newer one: other writers kept coming first');
  }

  /** The layer's edits after log seq `since`, at most `limit`. */
  list(roomId: string, layerId: string, since: number, limit: number): Promise<EditPage> {
    return this.#inTurn(JSON.stringify([roomId, layerId]), async () => {
      const { edits } = await this.#load(roomId, layerId);
      const n = Math.max(1, Math.min(MAX_PAGE, Math.floor(limit)));
      const page = edits.list(since, n + 1);
      const shown = page.slice(0, n);
      return { edits: shown, next_since: shown.at(-1)?.seq ?? Math.max(0, since), more: page.length > n };
    });
  }

  /**
   * What made version `at` of the layer: the base result's provenance as the room's scene knows
   * it, with (past version 0) the base result's id and the edits over it, by log seq.
   */
  async provenanceAt(roomId: string, layerId: string, at: { version: number; records: readonly EditRecord[] }): Promise<LayerProvenance | undefined> {
    const layer = (await this.#deps.scenes.scene(roomId)).layers.find((l) => l.id === layerId);
    const made = layer?.result?.provenance;
    if (at.version === 0) return made && !editedFrom(made) ? made : undefined;
    return versionProvenance(made, (await this.namedAt(roomId, layerId, 0)).id, at.records);
  }

  /** Versions of edited layers made whole since start (their voxels put together: a read of them, never their surfaces). */
  get versionsMade(): number {
    return this.#versions.counts.made;
  }

  /** Whether the layer has any edit kept. */
  async hasEdits(roomId: string, layerId: string): Promise<boolean> {
    return (await this.#deps.store.after(roomId, layerId, 0)).length > 0;
  }

  /** Runs `work` (edits made again) naming no version on the way; then the current one, when `madeAny` says so. */
  async unnamed(roomId: string, layerId: string, work: () => Promise<void>, madeAny: () => boolean): Promise<void> {
    const key = JSON.stringify([roomId, layerId]);
    this.#replaying.add(key);
    try {
      await work();
    } finally {
      this.#replaying.delete(key);
      if (madeAny()) this.#shown.changed(roomId, layerId);
    }
  }

  /** The layer's labels at `version` (the current one when absent) as a volume result of its own, with its id and version. */
  async labelsAt(roomId: string, layerId: string, version?: number): Promise<NamedVersion & { result: StoredVolume }> {
    const asked = await this.#inTurn(JSON.stringify([roomId, layerId]), async () => {
      const loaded = await this.#load(roomId, layerId);
      const at = this.#versionAsked(loaded, version);
      const id = this.#versions.nameOf(roomId, layerId, loaded, at);
      // The version is made outside the turn: the next edit need not wait for it.
      return { made: at === 0 ? loaded.base : this.#versions.made(roomId, layerId, loaded, at, id), id, version: at, records: this.#records(loaded, at) };
    });
    const [result, id] = await Promise.all([asked.made, asked.id]);
    return { result, id, version: asked.version, records: asked.records };
  }

  /** The id of the layer's labels at `version` (the current one when absent), its voxels not made. */
  async namedAt(roomId: string, layerId: string, version?: number): Promise<NamedVersion> {
    const asked = await this.#inTurn(JSON.stringify([roomId, layerId]), async () => {
      const loaded = await this.#load(roomId, layerId);
      const at = this.#versionAsked(loaded, version);
      return { id: this.#versions.nameOf(roomId, layerId, loaded, at), version: at, records: this.#records(loaded, at) };
    });
    return { id: await asked.id, version: asked.version, records: asked.records };
  }

  /**
   * The version named `id` on this host, its voxels made now when they are not held; null for
   * an id that names none.
   */
  async versionNamed(id: string): Promise<StoredVolume | null> {
    const named = this.#versions.placeOf(id);
    if (!named) return null;
    return (await this.labelsAt(named.roomId, named.layerId, named.version)).result;
  }

  /**
   * The version named `id` on this host as labels read by region (what its surfaces are built
   * from, its voxels not made whole); null for an id that names none.
   */
  async regionsNamed(id: string): Promise<RegionLabels | null> {
    const named = this.#versions.placeOf(id);
    return (named && this.#regions.of(named.roomId, named.layerId, named.version)) ?? null;
  }

  #versionAsked({ edits }: LoadedLayer, version: number | undefined): number {
    const at = version ?? edits.version;
    if (!Number.isInteger(at) || at < 0 || at > edits.version) throw createHostError('SPC_ERR_EDIT_VERSION_NOT_FOUND', String(version), String(edits.version));
    return at;
  }

  #records({ edits }: LoadedLayer, at: number): EditRecord[] {
    return Array.from({ length: at }, (_, k) => edits.recordAt(k + 1)!);
  }
}
