/**
 * @module lod-select
 * Which fragments of the octrees a frame draws. It starts from each surface's coarsest level
 * (a surface is drawn once all of it is in: the first picture is the coarsest level) and
 * refines the fragment whose screen-space error is largest first: past the threshold (16 px)
 * a fragment is replaced by its children when they are all in and the frame's triangles stay
 * within the budget; until they are in it stays drawn and they are wanted, most urgent first.
 * A fragment outside the view is never refined. The error of a fragment is its level's mean
 * edge seen from the camera at the fragment's nearest point: edge × pixels per unit / distance.
 */
import * as THREE from 'three';
import type { LodNode, SegmentTree } from './lod-tree.ts';

/** Refine past this many pixels of error (3D Tiles' default). */
export const ERROR_PIXELS = 16;

/** The camera as the selection sees it, in the content's own frame. */
export interface LodView {
  position: THREE.Vector3;
  frustum: THREE.Frustum;
  /** Pixels a unit spans at distance 1: half the viewport's height over tan(half the vertical field of view). */
  pixelsPerUnit: number;
}

/** What one frame draws and wants. */
export interface LodSelection {
  drawn: LodNode[];
  triangles: number;
  /** Fragments to fetch, most urgent first (`urgency` in pixels of error; the coarsest level first of all). */
  wanted: { node: LodNode; urgency: number }[];
  /** Levels to read (`{segment}/{level}.json`), with their urgency. */
  levels: { tree: SegmentTree; level: number; urgency: number }[];
}

const nearest = new THREE.Vector3();

/** A fragment's screen-space error in pixels (0 outside the view, infinite with the camera inside its box). */
export function screenError(node: LodNode, view: LodView): number {
  if (node.error === 0 || !view.frustum.intersectsBox(node.box)) return 0;
  const distance = node.box.clampPoint(view.position, nearest).distanceTo(view.position);
  return distance === 0 ? Infinity : (node.error * view.pixelsPerUnit) / distance;
}

/** A max-heap of drawn fragments by their error. */
class ByError {
  #items: { node: LodNode; error: number }[] = [];

  push(node: LodNode, error: number): void {
    const items = this.#items;
    items.push({ node, error });
    for (let i = items.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (items[up]!.error >= items[i]!.error) break;
      [items[up], items[i]] = [items[i]!, items[up]!];
      i = up;
    }
  }

  pop(): { node: LodNode; error: number } | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let big = i;
        if (l < items.length && items[l]!.error > items[big]!.error) big = l;
        if (r < items.length && items[r]!.error > items[big]!.error) big = r;
        if (big === i) break;
        [items[big], items[i]] = [items[i]!, items[big]!];
        i = big;
      }
    }
    return top;
  }
}

/** The fragments a frame draws from `trees` seen by `view`, within `budget` triangles; `resident(node)`: its geometry is in. */
export function selectFragments(
  trees: readonly SegmentTree[],
  view: LodView,
  budget: number,
  resident: (node: LodNode) => boolean,
): LodSelection {
  const drawn = new Set<LodNode>();
  const out: LodSelection = { drawn: [], triangles: 0, wanted: [], levels: [] };
  const heap = new ByError();
  const draw = (node: LodNode): void => {
    drawn.add(node);
    out.triangles += node.entry.triangles;
    const error = screenError(node, view);
    if (error > ERROR_PIXELS) heap.push(node, error);
  };
  // Extras and loose fragments stood for nothing drawn: shown when in and within the budget, else wanted.
  const extra = (node: LodNode, urgency: number): void => {
    if (!resident(node)) out.wanted.push({ node, urgency });
    else if (out.triangles + node.entry.triangles <= budget) draw(node);
  };
  for (const tree of trees) {
    const whole = tree.roots.every(resident);
    if (whole) tree.roots.forEach(draw);
    else for (const root of tree.roots) if (!resident(root)) out.wanted.push({ node: root, urgency: Infinity });
    if (whole) for (const node of tree.loose) if (view.frustum.intersectsBox(node.box)) extra(node, 0);
  }
  const byId = new Map(trees.map((tree) => [tree.segment, tree]));
  for (let top = heap.pop(); top; top = heap.pop()) {
    const { node, error } = top;
    if (node.children === null) {
      out.levels.push({ tree: byId.get(node.segment)!, level: node.level - 1, urgency: error });
      continue;
    }
    // Children that could not be drawn within the budget are not fetched either.
    const more = node.children.reduce((n, child) => n + child.entry.triangles, 0) - node.entry.triangles;
    if (out.triangles + more > budget) continue;
    const missing = node.children.filter((child) => !resident(child));
    if (missing.length > 0) {
      for (const child of missing) out.wanted.push({ node: child, urgency: error });
      continue;
    }
    drawn.delete(node);
    out.triangles -= node.entry.triangles;
    node.children.forEach(draw);
    for (const child of node.extras) extra(child, error);
  }
  out.drawn = [...drawn];
  out.wanted.sort((a, b) => b.urgency - a.urgency);
  out.levels.sort((a, b) => b.urgency - a.urgency);
  return out;
}

/** Whether `node`'s place is drawn: by itself, or by all of its children (each drawn, or covered in turn). */
function covered(node: LodNode, drawn: ReadonlySet<LodNode>): boolean {
  if (drawn.has(node)) return true;
  return node.children !== null && node.children.length > 0 && node.children.every((child) => covered(child, drawn));
}

/**
 * The holes of a frame: coarsest fragments of the surfaces `shown` (drawn before) whose place
 * the drawn fragments do not cover (a fragment gone before all of its children came).
 */
export function countHoles(trees: readonly SegmentTree[], drawn: ReadonlySet<LodNode>, shown: (tree: SegmentTree) => boolean): number {
  let holes = 0;
  for (const tree of trees) if (shown(tree)) for (const root of tree.roots) if (!covered(root, drawn)) holes++;
  return holes;
}
