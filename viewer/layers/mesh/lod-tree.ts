/**
 * @module lod-tree
 * One surface's octree of fragments as the viewer knows it: its coarsest level at first (the
 * roots), each finer level once read (`{segment}/{level}.json`). A fragment's children are the
 * fragments of the level below whose cell halves to its own; they replace it when they are all
 * in, and only then, so nothing drawn ever leaves a hole. A fragment whose parent cell holds
 * nothing (the coarser level simplified that bit away) hangs from its nearest ancestor as an
 * extra: drawn once it is in, never waited for, since nothing drawn stood for it.
 */
import * as THREE from 'three';
import type { MeshFragmentEntry, MeshSegmentLevels } from '../../../core/wire/mesh-level-types.ts';

export interface LodNode {
  /** `{segment}/{level}/{index}`, unique in the layer. */
  key: string;
  segment: number;
  level: number;
  entry: MeshFragmentEntry;
  /** The geometry's box, in the result's physical units (the content's own frame). */
  box: THREE.Box3;
  /** How far this level strays from the finest, in physical units (its mean edge). */
  error: number;
  parent: LodNode | null;
  /** The fragments that replace it, null until the level below is read (a level-0 fragment has none). */
  children: LodNode[] | null;
  /** Children hung here from a level whose parent cell is empty: drawn when in, never waited for. */
  extras: LodNode[];
}

/** The largest scale of a 3 × 4 row-major transform's axes (stored model units to physical). */
function transformScale(transform: readonly number[]): number {
  const column = (k: number) => Math.hypot(transform[k]!, transform[4 + k]!, transform[8 + k]!);
  return Math.max(column(0), column(1), column(2)) || 1;
}

const cellKey = (level: number, cell: readonly number[]) => `${level}:${cell[0]},${cell[1]},${cell[2]}`;

export class SegmentTree {
  readonly segment: number;
  readonly info: MeshSegmentLevels;
  readonly roots: LodNode[];
  /** Fragments with no ancestor at all (the coarser levels hold nothing around them): drawn when in. */
  readonly loose: LodNode[] = [];
  /** Levels whose fragments are known (the coarsest from the start). */
  readonly #known = new Set<number>();
  readonly #cells = new Map<string, LodNode>();
  readonly #scale: number;

  constructor(info: MeshSegmentLevels) {
    this.segment = info.segment;
    this.info = info;
    this.#scale = transformScale(info.transform);
    const top = info.levels - 1;
    this.roots = info.coarsest.map((entry) => this.#node(entry, null));
    this.#known.add(top);
    if (top === 0) for (const root of this.roots) root.children = [];
  }

  /** Takes in level `level`'s fragments (the level above it must be known). */
  addLevel(level: number, fragments: readonly MeshFragmentEntry[]): void {
    if (this.#known.has(level) || !this.#known.has(level + 1)) return;
    this.#known.add(level);
    for (const node of this.#cells.values()) if (node.level === level + 1) node.children = [];
    for (const entry of fragments) {
      let parent: LodNode | undefined;
      let cell = entry.cell.map((c) => Math.floor(c / 2));
      for (let up = level + 1; up < this.info.levels && !parent; up++, cell = cell.map((c) => Math.floor(c / 2))) {
        parent = this.#cells.get(cellKey(up, cell));
      }
      const node = this.#node(entry, parent ?? null);
      if (!parent) this.loose.push(node);
      else if (parent.level === level + 1) parent.children!.push(node);
      else parent.extras.push(node);
      if (level === 0) node.children = [];
    }
  }

  #node(entry: MeshFragmentEntry, parent: LodNode | null): LodNode {
    const [x0, y0, z0, x1, y1, z1] = entry.box;
    const node: LodNode = {
      key: `${this.segment}/${entry.level}/${entry.index}`,
      segment: this.segment,
      level: entry.level,
      entry,
      box: new THREE.Box3(new THREE.Vector3(x0, y0, z0), new THREE.Vector3(x1, y1, z1)),
      error: entry.level === 0 ? 0 : (this.info.level_scales[entry.level] ?? 0) * this.#scale,
      parent,
      children: null,
      extras: [],
    };
    this.#cells.set(cellKey(entry.level, entry.cell), node);
    return node;
  }
}
