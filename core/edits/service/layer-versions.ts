/**
 * @module layer-versions
 * The versions of the labels layers one host has loaded: each named first, its voxels made only
 * when something reads them. A version's id is worked out in the layer's turn from the base's
 * id, its tables and the chunks that differ from the base (version-name.ts), once per version,
 * and remembered both ways (a version found by its id is made then). Its voxels are put together
 * on a worker thread from the volume frozen in the layer's turn, once per version, and held in
 * the host's result budget for the room, under that id; made again only once the budget let it
 * go. Whoever builds surfaces is told which earlier version each one is made from, with the
 * segments changed between (only those are built again).
 */
import type { ResultBudget } from '../../cache/result-budget.ts';
import { nameResult } from '../../results/result-id.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import type { ResultIds } from '../../serving/result-ids.ts';
import type { EditRecord, VoxelBox } from '../../wire/edit-types.ts';
import { tableFields } from '../label-tables.ts';
import type { LayerEdits } from '../layer-edits.ts';
import { versionName, type ChunkDigests } from '../version-name.ts';
import type { VersionVoxelsRunner } from '../version-voxels.ts';
import type { RegionLabels } from '../../meshes/region-labels.ts';

export type StoredVolume = Extract<StoredResult, { type: 'volume' }>;

/** A layer loaded on this host. */
export interface LoadedLayer {
  base: StoredVolume;
  edits: LayerEdits;
  /** The base result's id. */
  baseId: Promise<string>;
  /** The base's tables as a version carries them (JSON): a version with other tables is named by its own. */
  baseTables: string;
  digests: ChunkDigests;
}

/** A version of a layer, named: its id, with the edits up to it. */
export interface NamedVersion {
  id: string;
  version: number;
  records: EditRecord[];
}

/** What is told that a version is an earlier one with only some segments' voxels changed. */
export interface DerivedVersions {
  /** `result` is `from` with only the voxels of `changed` segments changed, inside their boxes in `from` and `boxes` (what edits wrote). */
  derived(result: StoredResult | RegionLabels, from: StoredResult | RegionLabels, changed: Iterable<number>, boxes: readonly VoxelBox[]): void;
  /** `result` is the version `named` (read by region) made whole; its label index is `from`'s with `change`. */
  madeWhole(result: StoredVolume, named: RegionLabels, from: StoredResult, change: { changed: number[]; boxes: VoxelBox[] }): void;
}

/** Each version named as labels read by region (version-regions.ts). */
export interface NamedRegions {
  /** Makes version `at`'s (named `id`, not the base's), once. */
  named(roomId: string, layerId: string, loaded: LoadedLayer, at: number, id: string): RegionLabels;
  /** Version `at`'s, when made. */
  of(roomId: string, layerId: string, at: number): RegionLabels | undefined;
}

export interface LayerVersionsDeps {
  /** Holds each version's result while the host has room for it. */
  budget: Pick<ResultBudget<StoredResult>, 'hold' | 'holds'>;
  /** Puts a version's voxels together off the event loop (the encode pool). */
  assemble: VersionVoxelsRunner;
  /** Indexes a version made under its id. */
  resultIds: Pick<ResultIds, 'of'>;
  /** Told, of each version made, which earlier one it is with which segments changed (the surfaces' level sets follow it). */
  versions?: DerivedVersions;
  /** Makes each version named labels read by region (what its surfaces are built from). */
  regions?: NamedRegions;
}

/** Where a version lies: its room, layer and version. */
interface VersionPlace {
  roomId: string;
  layerId: string;
  version: number;
}

const keyOf = (roomId: string, layerId: string, at: number) => JSON.stringify([roomId, layerId, at]);

export class LayerVersions {
  #deps: LayerVersionsDeps;
  /** Versions made and still held in the budget, by room, layer and version. */
  #made = new Map<string, StoredVolume>();
  /** Versions being made, by the same key: asked again meanwhile, the one making is awaited. */
  #making = new Map<string, Promise<StoredVolume>>();
  /** Versions' ids, by room, layer and version, and the way back. */
  #names = new Map<string, string>();
  #places = new Map<string, VersionPlace>();
  /** Versions made whole since start (what reading a version's voxels costs). */
  readonly counts = { made: 0 };

  constructor(deps: LayerVersionsDeps) {
    this.#deps = deps;
  }

  /** Where the version named `id` lies; undefined for an id this host named no version by. */
  placeOf(id: string): VersionPlace | undefined {
    return this.#places.get(id);
  }

  /**
   * Version `at`'s id, worked out in the layer's turn (its chunks as they are then) from the
   * base's id, its tables and its chunks that differ from the base: once per version.
   */
  nameOf(roomId: string, layerId: string, loaded: LoadedLayer, at: number): Promise<string> {
    if (at === 0) return loaded.baseId;
    const key = keyOf(roomId, layerId, at);
    const known = this.#names.get(key);
    if (known) return Promise.resolve(known);
    const { edits, digests, base, baseTables } = loaded;
    const differing = digests.differing(edits.laterWrites(at));
    const tables = JSON.stringify(tableFields(edits.tablesAt(at), base));
    return loaded.baseId.then((baseId) => {
      const id = versionName(baseId, tables === baseTables ? null : tables, differing);
      this.#names.set(key, id);
      // The base is found as itself: a version with nothing changed is never made for its id.
      if (id === baseId) return id;
      if (!this.#places.has(id)) this.#places.set(id, { roomId, layerId, version: at });
      this.#deps.regions?.named(roomId, layerId, loaded, at, id);
      return id;
    });
  }

  /**
   * Version `at` of the layer as a result named `id`: the one held since it was made, else made
   * now and held for the room. Called in the layer's turn, which it leaves at once: the volume is
   * frozen here, and the version's voxels are put together on a thread while later edits go on.
   */
  made(roomId: string, layerId: string, loaded: LoadedLayer, at: number, id: Promise<string>): Promise<StoredVolume> {
    const { base, edits } = loaded;
    const key = keyOf(roomId, layerId, at);
    const held = this.#made.get(key);
    if (held && this.#deps.budget.holds(held)) return Promise.resolve(held);
    const making = this.#making.get(key);
    if (making) return making;
    const tables = tableFields(edits.tablesAt(at), base);
    const made = this.#deps
      .assemble(edits.versionTask(at))
      .then(async (data) => {
        this.counts.made++;
        const result = { ...base, data, ...tables } as StoredVolume;
        // Named from what changed, never hashed whole; indexed under that name.
        nameResult(result, await id);
        await this.#deps.resultIds.of(result);
        this.#made.set(key, result);
        this.#tellDerived(roomId, layerId, loaded, at, result);
        this.#deps.budget.hold(result, `room:${roomId}`, () => this.#made.get(key) === result && this.#made.delete(key));
        return result;
      })
      .finally(() => this.#making.delete(key));
    this.#making.set(key, made);
    return made;
  }

  /**
   * Tells which version `result` (version `at`) is made from: the newest earlier one still held
   * (else the base), with the segments the edits between changed or made.
   */
  #tellDerived(roomId: string, layerId: string, { base, edits }: LoadedLayer, at: number, result: StoredVolume): void {
    const { versions, budget, regions } = this.#deps;
    if (!versions) return;
    let from: StoredVolume = base;
    let since = 0;
    for (let k = at - 1; k > 0; k--) {
      const held = this.#made.get(keyOf(roomId, layerId, k));
      if (held && budget.holds(held)) {
        [from, since] = [held, k];
        break;
      }
    }
    const { changed, boxes } = edits.changedSince(since, at);
    // Its surfaces are those of the version as named, read by region: built once for both.
    const named = regions?.of(roomId, layerId, at);
    if (named) versions.madeWhole(result, named, from, { changed: [...changed], boxes });
    else versions.derived(result, from, changed, boxes);
  }
}
