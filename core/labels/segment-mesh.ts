/**
 * @module segment-mesh
 * A segmentation's surfaces as one mesh result: one label's (`segment=N`), or every label's
 * (`segment=all`), each made inside its own bounding box and, for all of them, painted in its
 * label colour (the result's `label_colors`, else the categorical colour every view uses) so
 * a client tells them apart without the volume. Runs on the encode worker thread.
 */
import { labelColour } from '../wire/label-colors.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import { findLabel, spatialShape, type LabelIndex } from './label-index.ts';
import { MeshBuilder } from '../geometry/mesh-builder.ts';
import { addSegmentSurface, type VoxelFrame } from './segment-surface.ts';

type StoredMesh = Extract<StoredResult, { type: 'mesh' }>;

/** The voxel frame of a volume: its spacing and origin (C order), 1 and 0 where it has none. */
export function voxelFrameOf(volume: StoredVolume): VoxelFrame {
  return { spacing: spatialShape(volume.spacing ?? []), origin: spatialShape(volume.origin ?? [], 0) };
}

/** About how many vertices the surfaces of `ids` have: one per voxel face on a blob filling most of its box. */
function expectedVertices(index: LabelIndex, ids: readonly number[]): number {
  let faces = 0;
  for (const id of ids) {
    const k = findLabel(index, id);
    if (k < 0) continue;
    const [z0, y0, x0, z1, y1, x1] = index.boxes.subarray(k * 6, k * 6 + 6);
    const dz = z1! - z0! + 1, dy = y1! - y0! + 1, dx = x1! - x0! + 1;
    faces += 2 * (dz * dy + dy * dx + dz * dx);
  }
  return Math.max(256, Math.ceil(faces * 0.7));
}

/**
 * The surface mesh of the labels `ids` of `volume`, each found in `index` (ids it lacks are
 * skipped). `painted`: per-vertex colours by label (what `segment=all` sends).
 */
export function segmentMesh(volume: StoredVolume, index: LabelIndex, ids: readonly number[], painted: boolean): StoredMesh {
  const shape = spatialShape(volume.shape);
  const frame = voxelFrameOf(volume);
  const out = new MeshBuilder(expectedVertices(index, ids));
  for (const id of ids) {
    const k = findLabel(index, id);
    if (k < 0) continue;
    const from = out.vertexCount;
    addSegmentSurface(volume.data, shape, id, index.boxes.subarray(k * 6, k * 6 + 6), frame, out);
    if (painted) {
      const rgb = labelColour(id, { resultColors: volume.label_colors });
      if (rgb) out.paint(from, rgb);
    }
  }
  return out.finish();
}
