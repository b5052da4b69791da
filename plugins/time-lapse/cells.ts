/**
 * @module cells
 * Cells that divide once during the time-lapse: each has a place, a direction it divides
 * along and a moment it divides. Before it, one nucleus; then the chromatin condenses, splits
 * and the two halves move apart, each daughter with a membrane of its own (a shell: a broad
 * Gaussian less a narrower one), pinched in between them.
 */
import type { Blob } from './blobs.ts';
import { seededRandom } from '../shared/seeded-random.ts';

export interface Cell {
  centre: [number, number, number];
  /** Unit vector the cell divides along. */
  axis: [number, number, number];
  /** When it divides, as a fraction of the time-lapse. */
  divides: number;
}

/** A daughter (or, before division, half of the cell) as the two channels draw it. */
export interface Daughter {
  nucleus: Blob;
  membrane: Blob[];
}

export function placeCells(count: number, seed: number): Cell[] {
  const next = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const centre: [number, number, number] = [next() * 1.1 - 0.55, next() * 1.1 - 0.55, next() * 1.1 - 0.55];
    const theta = Math.acos(2 * next() - 1);
    const phi = 2 * Math.PI * next();
    const axis: [number, number, number] = [Math.sin(theta) * Math.cos(phi), Math.sin(theta) * Math.sin(phi), Math.cos(theta)];
    return { centre, axis, divides: 0.2 + 0.35 * next() };
  });
}

/** Smooth 0 → 1 over [0, 1]. */
const smooth = (s: number) => (s <= 0 ? 0 : s >= 1 ? 1 : s * s * (3 - 2 * s));

/** The daughters of every cell at `phase` (0 at the first step, 1 at the last). */
export function cellsAt(cells: readonly Cell[], phase: number): Daughter[] {
  return cells.flatMap((cell) => {
    const apart = smooth((phase - cell.divides) / 0.3);
    // Chromatin condenses (smaller, brighter) around the division, then relaxes.
    const condensed = Math.exp(-(((phase - cell.divides) / 0.08) ** 2));
    const offset = 0.22 * apart;
    return [-1, 1].map((side): Daughter => {
      const [x, y, z] = cell.centre.map((c, k) => c + side * offset * cell.axis[k]!) as [number, number, number];
      const share = 0.5 + 0.5 * apart;
      return {
        nucleus: { x, y, z, sigma: 0.075 - 0.02 * condensed, amplitude: share * (1 + 0.6 * condensed) },
        membrane: [
          { x, y, z, sigma: 0.2, amplitude: 4 * share },
          { x, y, z, sigma: 0.15, amplitude: -3.6 * share },
        ],
      };
    });
  });
}
