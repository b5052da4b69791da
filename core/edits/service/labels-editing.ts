/**
 * @module labels-editing
 * Edits of rooms' labels layers, as the routes, the agent and MCP make them. A layer is loaded
 * once per host (loaded-layers.ts) with every kept edit applied again in version order. Each
 * layer's work runs one at a time: read what other hosts kept since (a Redis service), plan the
 * edit on the layer as it is and apply it ahead of its record, which is kept (with its log entry
 * and event) after the records before it (edits-ahead.ts); when another host came first, the
 * edits ahead are taken back and planned again. Any version's labels are the layer now with every
 * later edit written back, answered as a volume result of its own: put together on a worker thread
 * from the volume frozen in the layer's turn, held in the host's result budget for the room (so
 * every route that finds a result by its id finds it, with the room's access) and made again once
 * the budget let it go. A version's id is named from the base's id and the chunks that differ from
 * the base (version-name.ts), without its voxels, which are made only when something reads them.
 */
import type { EditingDeps } from './editing-deps.ts';
import { createHostError } from '../../errors.ts';
import { editedFrom, type LayerProvenance } from '../../wire/provenance-types.ts';
import { checkEdit } from '../check-edit.ts';
import type { EditAnswer, EditRecord, LabelEdit, ListedEdit } from '../../wire/edit-types.ts';
import type { LayerEdits, PlannedEdit } from '../layer-edits.ts';
import { EditsAhead } from './edits-ahead.ts';
import type { EditDraft } from '../edit-store.ts';
import { currentActor } from '../../history/request-actor.ts';
import { pageLimit } from '../../history/room-log-store.ts';
import { LoadedLayers } from './loaded-layers.ts';
import { LayerVersions, type LoadedLayer, type NamedVersion, type StoredVolume } from './layer-versions.ts';
import { ShownVersions, versionProvenance } from './shown-versions.ts';
import { VersionRegions } from './version-regions.ts';
import type { RegionLabels } from '../../meshes/region-labels.ts';
import { inTurn } from '../../memory/key-turns.ts';

/** A page of a layer's edits, as the log pages. */
export interface EditPage {
  edits: ListedEdit[];
  next_since: number;
  more: boolean;
}

/** What the store keeps of a planned edit, by whoever asked for it (several are kept in one write). */
const draftOf = ({ edit, segments, voxels, box }: PlannedEdit): EditDraft => ({ edit, segments, voxels, box, by: currentActor() });

/** While edits stream in, how long the layer's result may wait to be named. */
const NAME_AT_MOST_MS = 1000;

/** Edits a host retries planning while other hosts keep coming first. */
const ATTEMPTS = 100;

export class LabelsEditing {
  #deps: EditingDeps;
  #loaded: LoadedLayers;
  /** Each layer's work, one at a time. */
  #turns = new Map<string, Promise<unknown>>();
  #versions: LayerVersions;
  #regions: VersionRegions;
  #shown: ShownVersions;
  /** When each layer's current version was last named as its result. */
  #namedAtMs = new Map<string, number>();
  /** Edits applied ahead of their records, being kept in order. */
  #ahead = new EditsAhead<readonly [roomId: string, layerId: string]>({
    append: ([roomId, layerId], expected, drafts) => this.#deps.store.append(roomId, layerId, expected, drafts),
    kept: ([roomId, layerId]) => this.#changed(roomId, layerId),
  });
  /** Layers whose carried edits are being made again: their versions are named once, at the end. */
  #replaying = new Set<string>();

  constructor(deps: EditingDeps) {
    this.#deps = deps;
    // A loaded layer's base index is what every version's is found from: found at once, before the first edit names a version.
    // The encode threads are readied first, so the index does not hold one while the others start.
    this.#loaded = new LoadedLayers(deps.scenes, deps.sources, ({ base }) => {
      void deps.warmThreads?.().catch((err: unknown) => deps.warn('the encode threads could not be readied for editing', err));
      void deps.labelIndex(base, '').catch(() => {});
    });
    this.#regions = new VersionRegions({
      inLayer: (roomId, layerId, work) => this.#inLayer(roomId, layerId, work),
      entries: deps.assemble,
      baseIndex: deps.labelIndex,
      ...(deps.versions ? { lineage: deps.versions } : {}),
    });
    const { budget, assemble, versions } = deps;
    this.#versions = new LayerVersions({ budget, assemble, resultIds: deps.sources.resultIds, ...(versions ? { versions } : {}), regions: this.#regions });
    this.#shown = new ShownVersions({
      namedAt: (roomId, layerId, version) => this.namedAt(roomId, layerId, version),
      namedNow: (roomId, layerId) => this.#namedNow(roomId, layerId),
      scenes: deps.scenes,
      store: deps.sceneStore,
      warn: deps.warn,
    });
  }

  /** Runs `work` in the layer's turn, on the layer as loaded (with what other hosts kept since). */
  #inLayer<T>(roomId: string, layerId: string, work: (loaded: LoadedLayer) => T | Promise<T>): Promise<T> {
    return inTurn(this.#turns, JSON.stringify([roomId, layerId]), async () => work(await this.#load(roomId, layerId)));
  }

  async #load(roomId: string, layerId: string): Promise<LoadedLayer> {
    const loaded = await this.#loaded.load(roomId, layerId);
    await this.#catchUp(roomId, layerId, loaded.edits);
    return loaded;
  }

  /** Applies the edits kept since the layer's version here (by this host's earlier runs, or another host's); never while edits are ahead. */
  async #catchUp(roomId: string, layerId: string, edits: LayerEdits): Promise<void> {
    if (edits.version !== edits.keptVersion) return;
    for (const record of await this.#deps.store.after(roomId, layerId, edits.version)) {
      if (record.version !== edits.version + 1) continue;
      edits.apply(edits.plan(record.edit), record);
    }
  }

  /** Makes `body` (a client's edit) the layer's next edit. With `ifMatch`, only while the layer is at that version (else 412). */
  edit(roomId: string, layerId: string, body: unknown, ifMatch?: number): Promise<EditAnswer> {
    return this.#keep(roomId, layerId, (edits) => checkEdit(body, edits.volume), ifMatch);
  }

  /** Undoes (or redoes) edit `seq` as a new edit. */
  reverse(roomId: string, layerId: string, op: 'undo' | 'redo', seq: number, ifMatch?: number): Promise<EditAnswer> {
    return this.#keep(roomId, layerId, () => ({ op, seq }), ifMatch);
  }

  /**
   * Keeps the edit `asked` makes of the layer: planned in the layer's turn, then kept in the
   * store, planned again (on the layer with the other host's edits) while another host keeps
   * coming first. A merge, split, paint or names edit with no `ifMatch` is applied ahead of its
   * record, and the turn goes on to the next edit while the record is kept; the others wait for
   * every edit ahead and are kept within the turn.
   */
  async #keep(roomId: string, layerId: string, asked: (edits: LayerEdits) => LabelEdit, ifMatch: number | undefined): Promise<EditAnswer> {
    const key = JSON.stringify([roomId, layerId]);
    let plannedOn = 0;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const step = await inTurn(this.#turns, key, async () => {
        let { edits } = await this.#load(roomId, layerId);
        const edit = asked(edits);
        const ahead = ifMatch === undefined && edit.op !== 'undo' && edit.op !== 'redo';
        if (!ahead && edits.version !== edits.keptVersion) {
          await this.#ahead.settled(key);
          ({ edits } = await this.#load(roomId, layerId));
        }
        plannedOn = edits.version;
        if (ifMatch !== undefined && ifMatch !== edits.version) throw createHostError('SPC_ERR_EDIT_STALE', String(ifMatch), String(edits.version));
        const planned = edits.plan(edit);
        // Ahead: its record is kept after the turn ends (awaited below); else within the turn.
        const kept = ahead ? this.#ahead.keep(key, [roomId, layerId], edits, planned, draftOf(planned)) : await this.#keepNow(roomId, layerId, edits, planned);
        return { planned, kept };
      });
      const record = await step.kept;
      if (!record) continue;
      const { segments, voxels, box } = step.planned;
      return { seq: record.seq, version: record.version, by: record.by, segments, voxels, box };
    }
    throw createHostError('SPC_ERR_EDIT_STALE', String(plannedOn), 'a newer one: other writers kept coming first');
  }

  /** Keeps `planned` at the layer's version, in the turn; null when another host came first (its edits are read in). */
  async #keepNow(roomId: string, layerId: string, edits: LayerEdits, planned: PlannedEdit): Promise<EditRecord | null> {
    const [record] = (await this.#deps.store.append(roomId, layerId, edits.version, [draftOf(planned)])) ?? [];
    if (!record) {
      await this.#catchUp(roomId, layerId, edits);
      return null;
    }
    edits.apply(planned, record);
    this.#changed(roomId, layerId);
    return record;
  }

  /** The layer has a new version kept: named as its result (not while carried edits are made again). */
  #changed(roomId: string, layerId: string): void {
    if (!this.#replaying.has(JSON.stringify([roomId, layerId]))) this.#shown.changed(roomId, layerId);
  }

  /**
   * The current version's id, as the layer's result names it: null while edits are ahead of
   * their records (the kept version would be named from its chunks with those edits' voxels
   * written back, many chunks hashed again for each naming while edits stream in), unless none
   * was named for NAME_AT_MOST_MS. The last edit kept of a stream leaves none ahead.
   */
  async #namedNow(roomId: string, layerId: string): Promise<NamedVersion | null> {
    const key = JSON.stringify([roomId, layerId]);
    const asked = await this.#inLayer(roomId, layerId, (loaded) => {
      const { edits } = loaded;
      const waited = performance.now() - (this.#namedAtMs.get(key) ?? 0);
      if (edits.version !== edits.keptVersion && waited < NAME_AT_MOST_MS) return null;
      this.#namedAtMs.set(key, performance.now());
      return this.#nameIn(roomId, layerId, loaded, edits.keptVersion);
    });
    return asked && { id: await asked.id, version: asked.version, records: asked.records };
  }

  #nameIn(roomId: string, layerId: string, loaded: LoadedLayer, at: number) {
    return { id: this.#versions.nameOf(roomId, layerId, loaded, at), version: at, records: this.#records(loaded, at) };
  }

  /** The layer's edits after log seq `since`, at most `limit`. */
  list(roomId: string, layerId: string, since: number, limit: number): Promise<EditPage> {
    return this.#inLayer(roomId, layerId, ({ edits }) => {
      const n = pageLimit(limit);
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
    const asked = await this.#inLayer(roomId, layerId, (loaded) => {
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
    const asked = await this.#inLayer(roomId, layerId, (loaded) => this.#nameIn(roomId, layerId, loaded, this.#versionAsked(loaded, version)));
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
    const at = version ?? edits.keptVersion;
    const kept = edits.keptVersion;
    if (!Number.isInteger(at) || at < 0 || at > kept) throw createHostError('SPC_ERR_EDIT_VERSION_NOT_FOUND', String(version), String(kept));
    return at;
  }

  #records({ edits }: LoadedLayer, at: number): EditRecord[] {
    return Array.from({ length: at }, (_, k) => edits.recordAt(k + 1)!);
  }
}
