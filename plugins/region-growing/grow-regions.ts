/**
 * @module grow-regions
 * The flood fill behind `grow_regions`: from each seed voxel, a breadth-first walk over the six
 * face neighbours taking every voxel not yet labelled whose value is within the tolerance of
 * the seed's value, up to a number of voxels per region.
 */
import type { VolumeInput } from 'vitrine';

type Voxel = [number, number, number] | null;

function valueRange(data: ArrayLike<number>): number {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]!;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return max > min ? max - min : 1;
}

/** One label (1, 2, ...) per seed; `onRegion` after each region with its size. */
export function growRegions(
  volume: VolumeInput,
  seeds: readonly Voxel[],
  tolerance: number,
  maxVoxels: number,
  onRegion: (k: number, size: number) => void,
): Uint8Array {
  const [d, h, w] = volume.shape as [number, number, number];
  const data = volume.data as ArrayLike<number>;
  const labels = new Uint8Array(w * h * d);
  const reach = tolerance * valueRange(data);
  const queue = new Int32Array(Math.min(labels.length, maxVoxels) + 1);
  seeds.forEach((seed, k) => {
    const label = k + 1;
    if (!seed || label > 255) return onRegion(k, 0);
    const start = (seed[2] * h + seed[1]) * w + seed[0];
    if (labels[start] !== 0) return onRegion(k, 0);
    const centre = data[start]!;
    let head = 0;
    let tail = 0;
    labels[start] = label;
    queue[tail++] = start;
    while (head < tail && tail < queue.length) {
      const at = queue[head++]!;
      const x = at % w;
      const y = Math.floor(at / w) % h;
      const z = Math.floor(at / (w * h));
      const near = [
        x > 0 ? at - 1 : -1,
        x < w - 1 ? at + 1 : -1,
        y > 0 ? at - w : -1,
        y < h - 1 ? at + w : -1,
        z > 0 ? at - w * h : -1,
        z < d - 1 ? at + w * h : -1,
      ];
      for (const next of near) {
        if (next < 0 || labels[next] !== 0 || Math.abs(data[next]! - centre) > reach || tail >= queue.length) continue;
        labels[next] = label;
        queue[tail++] = next;
      }
    }
    onRegion(k, tail);
  });
  return labels;
}
