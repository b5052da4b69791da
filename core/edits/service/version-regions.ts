/**
 * @module version-regions
 * An edited layer's versions as labels read by region: what its surfaces are built from, its
 * voxels never made whole for them. Each version named (but the base's own) gets one, which
 * reads any box of the version from the layer's chunks: in the layer's turn only the chunks the
 * box meets are frozen and the later edits that wrote in it taken, and the box is read from them
 * (every later edit written back inside it) on an encode thread, off the turn and the event loop,
 * so edits never wait on a read nor a read on the edits. Its label index is the
 * nearest earlier one known (an earlier version's, else the base's) with the entries of the
 * segments changed since found again, each in its own regions: its earlier box and the boxes
 * of the edits that changed it, joined where they touch (a segment an edit did not list kept
 * every voxel; segment-regions.ts). Whoever builds
 * surfaces is told which earlier version each is, with the segments changed between, so the
 * others share the earlier sets and only the changed ones are built (ahead, when someone was
 * looking at them). A version's index is held while it is among the last few asked.
 */
import { slotOwner } from '../../events/layer-slots.ts';
import { replacedEntries, type IndexBox, type IndexEntry } from '../../labels/derived-label-index.ts';
import { apartBoxes } from '../../labels/segment-regions.ts';
import type { RegionEntriesRunner } from '../version-region.ts';
import { findLabel, type LabelIndex } from '../../labels/label-index.ts';
import { voxelTransform } from '../../meshes/lod-sources.ts';
import type { RegionLabels } from '../../meshes/region-labels.ts';
import type { DerivedVersions, LoadedLayer, StoredVolume } from './layer-versions.ts';
import type { LayerEdits } from '../layer-edits.ts';

/** Indexes of versions held at once (each about 44 bytes a segment): the last ones asked. */
const HELD_INDEXES = 8;

export interface VersionRegionsDeps {
  /** Runs `work` in the layer's turn, on the layer as loaded. */
  inLayer<T>(roomId: string, layerId: string, work: (loaded: LoadedLayer) => T): Promise<T>;
  /** Finds segments' entries in boxes of a version on an encode thread, from what the layer's turn took. */
  entries: RegionEntriesRunner;
  /** The base result's label index (found once, kept beside it). */
  baseIndex(base: StoredVolume, client: string): Promise<LabelIndex>;
  /** Told of each version's labels read by region: which earlier one it is, with which segments changed. */
  lineage?: Pick<DerivedVersions, 'derived'>;
}

/** One version's labels read by region, with where it lies. */
interface VersionLabels extends RegionLabels {
  version: number;
  base: StoredVolume;
}

const keyOf = (roomId: string, layerId: string) => JSON.stringify([roomId, layerId]);

/**
 * `boxes` cut to where segment `id` can be at version `at`: the chunks it may lie in now (the
 * volume keeps them) and the boxes of the later edits that changed it (a voxel it held at `at`
 * holds it still, or a later edit listing it wrote there). An earlier box spanning two far
 * parts of a segment is cut to the chunks around each.
 */
function clipped(edits: LayerEdits, at: number, id: number, boxes: readonly IndexBox[]): IndexBox[] {
  const places: IndexBox[] = edits.volume.chunksOf(id).map((key) => {
    const box = edits.volume.chunkBox(key);
    return { from: box.slice(0, 3), to: box.slice(3) };
  });
  // Edits ahead of their records count too: the volume holds their voxels.
  for (let k = at + 1; k <= edits.version; k++) {
    const { segments, box } = edits.summaryAt(k)!;
    if (box && (segments.changed.includes(id) || segments.new.includes(id))) places.push(box);
  }
  const out: IndexBox[] = [];
  for (const box of boxes)
    for (const place of places) {
      const from = [0, 1, 2].map((k) => Math.max(box.from[k]!, place.from[k]!));
      const to = [0, 1, 2].map((k) => Math.min(box.to[k]!, place.to[k]!));
      if (from.every((v, k) => v < to[k]!)) out.push({ from, to });
    }
  return out;
}

export class VersionRegions {
  #deps: VersionRegionsDeps;
  /** Per layer, its versions' labels read by region, by version. */
  #layers = new Map<string, Map<number, VersionLabels>>();
  /** Versions' indexes, found or being found, by labels; the last few asked. */
  #indexes = new Map<VersionLabels, Promise<LabelIndex>>();
  /** The indexes among them found, by labels. */
  #found = new WeakMap<VersionLabels, LabelIndex>();

  constructor(deps: VersionRegionsDeps) {
    this.#deps = deps;
  }

  /** Version `at`'s labels read by region, when one was made for it. */
  of(roomId: string, layerId: string, at: number): RegionLabels | undefined {
    return this.#layers.get(keyOf(roomId, layerId))?.get(at);
  }

  /**
   * Makes version `at` (named `id`, not the base's) labels read by region, once, and tells whoever
   * builds surfaces which earlier one it is (the newest earlier version that has them, else the
   * base) with the segments the edits between changed.
   */
  named(roomId: string, layerId: string, loaded: LoadedLayer, at: number, id: string): RegionLabels {
    const key = keyOf(roomId, layerId);
    let versions = this.#layers.get(key);
    if (!versions) this.#layers.set(key, (versions = new Map()));
    const known = versions.get(at);
    if (known) return known;
    const labels: VersionLabels = {
      type: 'regionLabels',
      version: at,
      base: loaded.base,
      id: Promise.resolve(id),
      rooms: [slotOwner(roomId)?.room ?? roomId],
      transform: voxelTransform(loaded.base),
      index: (client) => this.#indexOf(roomId, layerId, labels, client),
      take: (from, to) => this.#deps.inLayer(roomId, layerId, ({ edits }) => edits.regionTask(at, [{ from, to }])),
    };
    versions.set(at, labels);
    const earlier = this.#earlier(versions, at);
    this.#deps.lineage?.derived(labels, earlier ?? loaded.base, loaded.edits.changedSince(earlier?.version ?? 0, at).changed, []);
    return labels;
  }

  /** The newest version before `at` with labels read by region, and of those with an index found, the newest. */
  #earlier(versions: Map<number, VersionLabels>, at: number, found = false): VersionLabels | undefined {
    let best: VersionLabels | undefined;
    for (const [v, labels] of versions)
      if (v < at && (!best || v > best.version) && (!found || this.#found.has(labels))) best = labels;
    return best;
  }

  #indexOf(roomId: string, layerId: string, labels: VersionLabels, client: string): Promise<LabelIndex> {
    let index = this.#indexes.get(labels);
    if (index) {
      // Asked again: among the last asked.
      this.#indexes.delete(labels);
      this.#indexes.set(labels, index);
      return index;
    }
    index = this.#derive(roomId, layerId, labels, client);
    index.then((found) => this.#found.set(labels, found)).catch(() => this.#indexes.get(labels) === index && this.#indexes.delete(labels));
    this.#indexes.set(labels, index);
    for (const [held] of this.#indexes) {
      if (this.#indexes.size <= HELD_INDEXES) break;
      this.#indexes.delete(held);
      this.#found.delete(held);
    }
    return index;
  }

  /**
   * Version `labels.version`'s index: the nearest earlier one found (else the base's) with each
   * segment changed since found in its regions: which regions, and the chunks they meet, taken
   * in the layer's turn; the entries found in them on an encode thread after it, all in one task.
   */
  async #derive(roomId: string, layerId: string, labels: VersionLabels, client: string): Promise<LabelIndex> {
    const at = labels.version;
    const versions = this.#layers.get(keyOf(roomId, layerId))!;
    const baseIndex = await this.#deps.baseIndex(labels.base, client);
    const read = await this.#deps.inLayer(roomId, layerId, ({ edits }) => {
      const earlier = this.#earlier(versions, at, true);
      const from = earlier ? this.#found.get(earlier)! : baseIndex;
      // Where each changed segment can lie: its box in `from` and the boxes of the edits that changed it.
      const boxes = new Map<number, IndexBox[]>();
      for (let k = (earlier?.version ?? 0) + 1; k <= at; k++) {
        const { segments, box } = edits.recordAt(k)!;
        for (const id of [...segments.changed, ...segments.new]) {
          let list = boxes.get(id);
          if (!list) {
            boxes.set(id, (list = []));
            const j = findLabel(from, id);
            const was = from.boxes.subarray(j * 6, j * 6 + 6);
            if (j >= 0) list.push({ from: Array.from(was.subarray(0, 3)), to: Array.from(was.subarray(3), (v) => v + 1) });
          }
          if (box) list.push(box);
        }
      }
      const parts = [...boxes].map(([id, list]) => [id, apartBoxes(clipped(edits, at, id, list))] as const);
      // Every region read in one trip to a thread.
      return { from, parts, task: edits.regionTask(at, parts.flatMap(([, list]) => list)) };
    });
    const parts = read.parts.map(([id, list]) => ({ id, boxes: list.length }));
    const entries = read.task.boxes.length === 0 ? [] : await this.#deps.entries({ op: 'labelsEntries', region: read.task, parts });
    const fresh = new Map<number, IndexEntry>();
    entries.forEach((entry, k) => entry && fresh.set(parts[k]!.id, entry));
    return replacedEntries(read.from, parts.map(({ id }) => id), fresh);
  }
}
