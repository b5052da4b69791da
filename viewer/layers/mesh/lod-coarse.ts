/**
 * @module lod-coarse
 * Coarse bundles as a layer drawn from levels of detail reads them: a shown surface's levels
 * and coarsest fragments come with those of the surfaces beside it in the list, several to a
 * request (`coarse/{k}`), so a first picture of many surfaces costs a few round trips rather
 * than two per surface (a browser has six connections to a host).
 */
import type { MeshLevels } from '../../../core/client/mesh-levels.ts';
import { COARSE_BUNDLE_SEGMENTS, type MeshSegmentList } from '../../../core/wire/mesh-level-types.ts';
import type { LodStore, LodTask } from './lod-store.ts';
import { SegmentTree } from './lod-tree.ts';

/** A segment's coarse bundle: its place in the list over the bundle's size. */
export function bundles(list: MeshSegmentList): (id: number) => number {
  const places = new Map(list.segments.map(({ id }, place) => [id, place]));
  return (id) => Math.floor(places.get(id)! / COARSE_BUNDLE_SEGMENTS);
}

/** The store's key of bundle `k`'s task. */
export const coarseKey = (k: number): string => `coarse:${k}`;

/** What a bundle's task reads with and puts its fragments and trees in. */
interface CoarseInto {
  levels: MeshLevels;
  store: LodStore;
  /** GLBs of bundles in, by path, until decoded. */
  bundled: Map<string, ArrayBuffer>;
  trees: Map<number, SegmentTree>;
}

/** Coarse bundle `k` in one task: its segments' levels, their coarsest fragments decoded from its bytes, then their trees. */
function coarseTask(k: number, into: CoarseInto): LodTask {
  const { levels, store, bundled, trees } = into;
  const run = async (signal: AbortSignal) => {
    const bundle = await levels.coarse(k, signal);
    const read = bundle.segments.map((sidecar) => new SegmentTree(sidecar));
    for (const [path, bytes] of bundle.glbs) bundled.set(path, bytes);
    try {
      const roots = read.flatMap((tree) => tree.roots.filter((root) => !store.has(root)));
      await Promise.all(roots.map((root) => store.fragmentTask(root, Infinity).run(signal)));
    } finally {
      for (const path of bundle.glbs.keys()) bundled.delete(path);
    }
    if (!signal.aborted) for (const tree of read) trees.set(tree.segment, tree);
  };
  return { key: coarseKey(k), urgency: Infinity, run };
}

/** The tasks of the bundles (`bundleOf` each segment's) holding a segment of `list` that is `unread`, in the list's order. */
export function coarseTasks(
  list: MeshSegmentList,
  bundleOf: (id: number) => number,
  unread: (id: number) => boolean,
  into: CoarseInto,
): LodTask[] {
  const asked = new Set<number>();
  for (const { id } of list.segments) if (unread(id)) asked.add(bundleOf(id));
  return [...asked].map((k) => coarseTask(k, into));
}
