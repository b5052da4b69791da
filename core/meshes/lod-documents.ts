/**
 * @module lod-documents
 * The JSON documents of a result's multi-resolution meshes: Neuroglancer's `info` (the format,
 * 10-bit positions, the transform from stored model coordinates into the result's physical
 * units, the scale multiplier: each level's scale is in the manifest already), the page's list
 * of segments (each with its box in physical units, from the label index: no surface built)
 * and each segment's sidecars (its levels, then each level's fragments with their cell,
 * triangles, bytes, box and GLB path, so a viewer picks fragments by screen-space error
 * without reading the manifest), and a coarse bundle of several segments' sidecars and
 * coarsest fragments (a first picture in a few requests).
 */
import { QUANTIZATION_BITS } from './lod-plan.ts';
import type { LodSubject } from './lod-subjects.ts';
import type { ShownLevels } from './level-set.ts';

/** Neuroglancer's `info` of the mesh source. */
export function meshInfo(subject: LodSubject): object {
  return {
    '@type': 'neuroglancer_multilod_draco',
    vertex_quantization_bits: QUANTIZATION_BITS,
    transform: subject.transform,
    lod_scale_multiplier: 1,
  };
}

/** A box of stored model coordinates (min x, y, z, max x, y, z) in physical units. */
function physicalBox(transform: readonly number[], box: readonly number[]): number[] {
  const at = (k: number, v: number) => transform[k * 4 + k]! * v + transform[k * 4 + 3]!;
  const ends = [0, 1, 2].map((k) => [at(k, box[k]!), at(k, box[k + 3]!)].sort((a, b) => a - b));
  return [...ends.map((e) => e[0]!), ...ends.map((e) => e[1]!)];
}

/** `segments.json`: every segment with levels, and (labels) its voxel count and box. */
export function segmentList(subject: LodSubject): object {
  const { index, transform } = subject;
  const segments = Array.from(subject.segments, (id, k) => {
    if (!index) return { id };
    const [z0, y0, x0, z1, y1, x1] = Array.from(index.boxes.subarray(k * 6, k * 6 + 6));
    // A voxel spans half a step either side of its centre.
    return { id, voxels: index.counts[k]!, box: physicalBox(transform, [x0! - 0.5, y0! - 0.5, z0! - 0.5, x1! + 0.5, y1! + 0.5, z1! + 0.5]) };
  });
  return { transform, segments };
}

/** Fragment entries of `level` (each with its place in its level) as the sidecars list them. */
function fragmentsOf(segment: number, lods: ShownLevels, level: number): object[] {
  return lods.fragments
    .filter((fragment) => fragment.level === level)
    .map((fragment, index) => ({
      level,
      index,
      cell: fragment.cell,
      triangles: fragment.triangles,
      bytes: fragment.glb[1],
      box: fragment.box,
      glb: `${segment}/${level}/${index}.glb`,
    }));
}

/**
 * `{segment}.json`: a segment's levels (scales, triangles and fragments of each) and the
 * fragments of its coarsest level, what a viewer draws first; each finer level's fragments
 * are `{segment}/{level}.json`.
 */
export function segmentSidecar(segment: number, lods: ShownLevels): object {
  let counts: number[];
  if ('counts' in lods) counts = lods.counts;
  else {
    // One pass over the fragments, not one per level.
    counts = new Array<number>(lods.levels).fill(0);
    for (const fragment of lods.fragments) counts[fragment.level]!++;
  }
  return {
    segment,
    levels: lods.levels,
    chunk_shape: [lods.plan.chunk, lods.plan.chunk, lods.plan.chunk],
    grid_origin: lods.plan.origin,
    transform: lods.transform,
    level_scales: lods.scales,
    level_triangles: lods.triangles,
    level_fragments: counts,
    coarsest: fragmentsOf(segment, lods, lods.levels - 1),
  };
}

/** `{segment}/{level}.json`: one level's fragments; null past the segment's levels. */
export function levelSidecar(segment: number, lods: ShownLevels, level: number): object | null {
  return level < lods.levels ? { segment, level, fragments: fragmentsOf(segment, lods, level) } : null;
}

/** A coarse bundle (the wire says its layout): `sets` are its segments' level sets, in the list's order. */
export function coarseBundle(sets: readonly { segment: number; lods: ShownLevels }[]): Uint8Array[] {
  const json = Buffer.from(JSON.stringify(sets.map(({ segment, lods }) => segmentSidecar(segment, lods))));
  const head = Buffer.alloc(4);
  head.writeUInt32LE(json.byteLength);
  const coarsest = sets.flatMap(({ lods }) =>
    lods.fragments.filter((f) => f.level === lods.levels - 1).map((f) => lods.glb.subarray(f.glb[0], f.glb[0] + f.glb[1])),
  );
  return [head, json, ...coarsest];
}
