/**
 * The viewer's choice of fragments from levels of detail (viewer/layers/mesh/lod-select.ts and
 * lod-tree.ts) on a made-up octree of two levels: the first picture is the coarsest level;
 * close up, a fragment is replaced by its children only once all of them are in, and only
 * within the budget; far away or out of view nothing is refined; a fragment whose parent cell
 * is empty hangs from its nearest ancestor as an extra; and the hole count sees a place left
 * uncovered.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import type { MeshFragmentEntry, MeshSegmentLevels } from '../../core/wire/mesh-level-types.ts';
import { countHoles, selectFragments, type LodView } from '../../viewer/layers/mesh/lod-select.ts';
import { SegmentTree, type LodNode } from '../../viewer/layers/mesh/lod-tree.ts';

/** A fragment of `level` in `cell` (level-0 cells are 1 unit a side, level 1's 2), `triangles` big. */
function fragment(level: number, index: number, cell: [number, number, number], triangles = 100): MeshFragmentEntry {
  const side = 2 ** level;
  const box = [...cell.map((c) => c * side), ...cell.map((c) => (c + 1) * side)];
  return { level, index, cell, triangles, bytes: triangles * 10, box, glb: `7/${level}/${index}.glb` };
}

function tree(): SegmentTree {
  const info: MeshSegmentLevels = {
    segment: 7,
    levels: 2,
    chunk_shape: [1, 1, 1],
    grid_origin: [0, 0, 0],
    transform: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0],
    level_scales: [0.05, 0.1],
    level_triangles: [400, 100],
    level_fragments: [4, 1],
    coarsest: [fragment(1, 0, [0, 0, 0])],
  };
  return new SegmentTree(info);
}

/** The level-0 fragments: four children of the root cell. */
const CHILDREN = [fragment(0, 0, [0, 0, 0]), fragment(0, 1, [1, 0, 0]), fragment(0, 2, [0, 1, 0]), fragment(0, 3, [1, 1, 1])];

/** A camera at `position` looking at the octree's centre, 800 px high, 45°. */
function viewFrom(position: [number, number, number]): LodView {
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  camera.position.set(...position);
  camera.lookAt(1, 1, 1);
  camera.updateMatrixWorld();
  const frustum = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
  return { position: camera.position.clone(), frustum, pixelsPerUnit: 400 * camera.projectionMatrix.elements[5]! };
}

const keys = (nodes: LodNode[]) => nodes.map((node) => node.key).sort();

describe('choosing fragments from levels of detail', () => {
  it('draws the coarsest level first, and wants the level below only when close', () => {
    const octree = tree();
    const none = selectFragments([octree], viewFrom([1, 1, 30]), 1e6, () => false);
    expect(none.drawn).toEqual([]);
    expect(none.wanted.map((w) => w.node.key)).toEqual(['7/1/0']);
    const far = selectFragments([octree], viewFrom([1, 1, 400]), 1e6, () => true);
    expect(keys(far.drawn)).toEqual(['7/1/0']);
    expect(far.levels).toEqual([]);
    const near = selectFragments([octree], viewFrom([1, 1, 4]), 1e6, () => true);
    expect(keys(near.drawn)).toEqual(['7/1/0']);
    expect(near.levels.map((l) => l.level)).toEqual([0]);
  });

  it('keeps the parent until all its children are in, then draws them within the budget', () => {
    const octree = tree();
    octree.addLevel(0, CHILDREN);
    const view = viewFrom([1, 1, 4]);
    const some = selectFragments([octree], view, 1e6, (node) => node.key !== '7/0/3');
    expect(keys(some.drawn)).toEqual(['7/1/0']);
    expect(some.wanted.map((w) => w.node.key)).toEqual(['7/0/3']);
    expect(countHoles([octree], new Set(some.drawn), () => true)).toBe(0);
    const all = selectFragments([octree], view, 1e6, () => true);
    expect(keys(all.drawn)).toEqual(['7/0/0', '7/0/1', '7/0/2', '7/0/3']);
    expect(all.triangles).toBe(400);
    // Past the budget the children are neither drawn nor fetched.
    const tight = selectFragments([octree], view, 399, (node) => node.level === 1);
    expect(keys(tight.drawn)).toEqual(['7/1/0']);
    expect(tight.wanted).toEqual([]);
  });

  it('refines nothing out of view', () => {
    const octree = tree();
    octree.addLevel(0, CHILDREN);
    const camera: [number, number, number] = [1, 1, 4];
    const away = viewFrom(camera);
    away.frustum = new THREE.Frustum().setFromProjectionMatrix(
      new THREE.Matrix4().makePerspective(-0.1, 0.1, 0.1, -0.1, 0.1, 10).multiply(new THREE.Matrix4().makeTranslation(0, 0, 100)),
    );
    expect(keys(selectFragments([octree], away, 1e6, () => true).drawn)).toEqual(['7/1/0']);
  });

  it('hangs a fragment with an empty parent cell from its nearest ancestor, and counts an uncovered place as a hole', () => {
    const info: MeshSegmentLevels = { ...tree().info, levels: 3, level_scales: [0.05, 0.1, 0.2], coarsest: [fragment(2, 0, [0, 0, 0])] };
    const octree = new SegmentTree(info);
    octree.addLevel(1, [fragment(1, 0, [0, 0, 0])]);
    octree.addLevel(0, [fragment(0, 0, [0, 0, 0]), fragment(0, 1, [3, 3, 3])]);
    const [root] = octree.roots;
    expect(root!.children!.map((c) => c.key)).toEqual(['7/1/0']);
    expect(root!.extras.map((c) => c.key)).toEqual(['7/0/1']);
    const drawn = new Set(selectFragments([octree], viewFrom([1, 1, 3]), 1e6, () => true).drawn);
    expect(keys([...drawn])).toEqual(['7/0/0', '7/0/1']);
    expect(countHoles([octree], drawn, () => true)).toBe(0);
    expect(countHoles([octree], new Set([...drawn].filter((n) => n.key !== '7/0/0')), () => true)).toBe(1);
  });
});
