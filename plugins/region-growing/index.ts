/**
 * @module region-growing
 * Seeded region growing: marks placed in a room become the seeds of a segmentation. A layer
 * binds `seeds` to the room's points (`"bind": {"seeds": {"label": "seed"}}`), so every peer
 * who places, moves or removes a seed sees the regions grown again.
 */
import type { Integer, ProgressReporter, VolumeInput, VolumeResult } from 'vitrine';
import { specimenInput, volumeFrameOf, voxelAt } from 'vitrine';
import { growRegions } from './grow-regions.ts';

/**
 * Grows a region from each seed through the neighbouring voxels whose values stay within
 * `tolerance` of the seed's own value, and answers a labels volume (the voxels of the region
 * grown from the k-th seed hold k; 0 is background) with the volume's spacing and origin.
 * Seeds are physical points (x, y, z) in the volume's frame, as a room's point annotations
 * are: a seed outside the volume grows nothing. Where regions meet, the first seed's wins.
 *
 * @param volume The volume to segment (default: the CT head phantom).
 * @param seeds Physical points (x, y, z) to grow from: bind them to a room's points labelled `seed`
 *   (default: the phantom's centre, inside its brain).
 * @param tolerance How far a voxel's value may be from its seed's, as a share of the volume's value range
 *   from 0 to 0.5.
 * @param max_voxels Most voxels one region may take (a seed in the background would flood the volume).
 * @maxItems seeds 255
 * @minimum tolerance 0
 * @maximum tolerance 0.5
 * @minimum max_voxels 1
 * @maximum max_voxels 16777216
 */
export function grow_regions(
  volume: VolumeInput = specimenInput('ct-head-phantom'),
  seeds: [number, number, number][] = [[0, 0, 0]],
  tolerance = 0.08,
  max_voxels: Integer = 1_000_000,
  progress?: ProgressReporter,
): VolumeResult {
  if (volume.shape.length !== 3) throw new Error(`grow_regions needs a 3-D volume, got shape [${volume.shape.join(', ')}]`);
  const frame = volumeFrameOf(volume);
  const voxels = seeds.map((seed) => voxelAt(frame, seed));
  const labels = growRegions(volume, voxels, tolerance, max_voxels, (k, size) => progress?.report(`seed ${k + 1}: ${size} voxels`, (k + 1) / seeds.length));
  const result: VolumeResult = { type: 'volume', shape: [...volume.shape], dtype: 'uint8', data: labels, labels: true };
  if (volume.spacing) result.spacing = [...volume.spacing];
  if (volume.origin) result.origin = [...volume.origin];
  return result;
}
