/**
 * @module surface-nets
 * Isosurface extraction by naive surface nets (Gibson 1998; Lysenko's formulation): one
 * vertex per grid cell that the surface crosses, placed at the mean of the cell's edge
 * crossings, and one quad (two triangles) per grid edge with a sign change, joining the four
 * cells around that edge. The mesh is indexed, consistently oriented with faces pointing from
 * inside (value > level) to outside, and closed wherever the surface does not leave the grid.
 */
import { growableFloat32, growableUint32, type GrowableArray } from './growable-array.ts';
import type { SampledField } from './sampled-field.ts';

/** Corner pairs of the 12 cell edges; corner bit 0 = +x, bit 1 = +y, bit 2 = +z. */
const CELL_EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7] as const;

/** The extracted triangle mesh (no normals). */
export interface SurfaceMesh {
  vertices: Float32Array;
  indices: Uint32Array;
}

/**
 * Extracts the surface `value = level` from `field`, one slab of cells at a time.
 *
 * @param afterSlab Awaited after each of the `nz - 1` slabs with its number (0-based) and
 *   the slab count: report progress, yield to the event loop, throw to stop.
 */
export async function extractSurface(
  field: SampledField,
  level: number,
  afterSlab: (slab: number, slabs: number) => Promise<void>,
): Promise<SurfaceMesh> {
  const [nx, ny, nz] = field.dims;
  const { values, origin, spacing } = field;
  const cx = nx - 1, cy = ny - 1;
  // Vertex id per cell for the current and previous slab (a ring of two), -1 when none.
  const cellVertex = new Int32Array(cx * cy * 2);
  const vertices = growableFloat32();
  const indices = growableUint32();
  const corner = new Float64Array(8);
  const sample = (x: number, y: number, z: number): number => values[(z * ny + y) * nx + x]! - level;
  const cellAt = (x: number, y: number, z: number): number => cellVertex[((z & 1) * cy + y) * cx + x]!;

  const quad = (a: number, b: number, c: number, d: number, flip: boolean): void => {
    if (flip) { const t = b; b = d; d = t; }
    // Split along the shorter diagonal: better-shaped triangles.
    const v = vertices;
    const ac = distance2(v, a, c), bd = distance2(v, b, d);
    if (ac <= bd) { indices.push3(a, b, c); indices.push3(a, c, d); }
    else { indices.push3(a, b, d); indices.push3(b, c, d); }
  };

  for (let z = 0; z < nz - 1; z++) {
    const ring = (z & 1) * cy * cx;
    for (let y = 0; y < cy; y++) {
      for (let x = 0; x < cx; x++) {
        let mask = 0;
        for (let c = 0; c < 8; c++) {
          const s = sample(x + (c & 1), y + ((c >> 1) & 1), z + (c >> 2));
          corner[c] = s;
          if (s > 0) mask |= 1 << c;
        }
        if (mask === 0 || mask === 255) { cellVertex[ring + y * cx + x] = -1; continue; }
        let sx = 0, sy = 0, sz = 0, crossings = 0;
        for (let e = 0; e < 24; e += 2) {
          const c0 = CELL_EDGES[e]!, c1 = CELL_EDGES[e + 1]!;
          if (((mask >> c0) & 1) === ((mask >> c1) & 1)) continue;
          const s0 = corner[c0]!, s1 = corner[c1]!;
          const t = s0 / (s0 - s1);
          sx += (c0 & 1) + ((c1 & 1) - (c0 & 1)) * t;
          sy += ((c0 >> 1) & 1) + (((c1 >> 1) & 1) - ((c0 >> 1) & 1)) * t;
          sz += (c0 >> 2) + ((c1 >> 2) - (c0 >> 2)) * t;
          crossings++;
        }
        cellVertex[ring + y * cx + x] = vertices.length / 3;
        vertices.push3(
          origin[0] + (x + sx / crossings) * spacing[0],
          origin[1] + (y + sy / crossings) * spacing[1],
          origin[2] + (z + sz / crossings) * spacing[2],
        );
      }
    }
    // Quads for the edges whose four surrounding cells are now all known.
    for (let y = 1; y < cy; y++) {
      for (let x = 1; x < cx; x++) {
        const inside = sample(x, y, z) > 0;
        if (inside === sample(x, y, z + 1) > 0) continue;
        quad(cellAt(x - 1, y - 1, z), cellAt(x, y - 1, z), cellAt(x, y, z), cellAt(x - 1, y, z), !inside);
      }
    }
    if (z > 0) {
      for (let y = 1; y < cy; y++) {
        for (let x = 0; x < cx; x++) {
          const inside = sample(x, y, z) > 0;
          if (inside === sample(x + 1, y, z) > 0) continue;
          quad(cellAt(x, y - 1, z - 1), cellAt(x, y, z - 1), cellAt(x, y, z), cellAt(x, y - 1, z), !inside);
        }
      }
      for (let y = 0; y < cy; y++) {
        for (let x = 1; x < cx; x++) {
          const inside = sample(x, y, z) > 0;
          if (inside === sample(x, y + 1, z) > 0) continue;
          quad(cellAt(x - 1, y, z - 1), cellAt(x - 1, y, z), cellAt(x, y, z), cellAt(x, y, z - 1), !inside);
        }
      }
    }
    await afterSlab(z, nz - 1);
  }
  return { vertices: vertices.toArray(), indices: indices.toArray() };
}

function distance2(v: GrowableArray<Float32Array>, a: number, b: number): number {
  const data = v.peek();
  const dx = data[a * 3]! - data[b * 3]!, dy = data[a * 3 + 1]! - data[b * 3 + 1]!, dz = data[a * 3 + 2]! - data[b * 3 + 2]!;
  return dx * dx + dy * dy + dz * dz;
}
