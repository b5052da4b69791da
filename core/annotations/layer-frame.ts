/**
 * @module layer-frame
 * Points carried into a layer's own frame. A layer's `affine` (4×4, row-major, physical units)
 * takes its coordinates into the room's; a mark made on a layer is in that layer's frame, one
 * made on the room in the room's. A plugin bound to the room's points gets them in the frame of
 * the layer it computes, so a seed placed on a moved or scaled scan still names the voxel under
 * it: a mark goes up into the room by its own layer's affine, then down by the inverse of the
 * bound layer's. A layer whose affine cannot be inverted (a scale of 0) takes room coordinates.
 */
import type { Vec3 } from '../wire/scene-types.ts';

/** The bound layer and every layer's affine (absent: identity). */
export interface BoundFrame {
  layer: string;
  affines: ReadonlyMap<string, readonly number[]>;
}

/**
 * The frame of layer `layerId` among `layers` (a scene's). `own` is the affine of a layer being
 * added or changed, when the scene does not hold it yet: `null` for none (identity).
 */
export function boundFrame(layers: readonly { id: string; affine?: number[] }[], layerId: string, own?: number[] | null): BoundFrame {
  const affines = new Map<string, readonly number[]>();
  for (const layer of layers) if (layer.affine) affines.set(layer.id, layer.affine);
  if (own) affines.set(layerId, own);
  else if (own === null) affines.delete(layerId);
  return { layer: layerId, affines };
}

/** 4×4 row-major `m` applied to a point. */
export function applyAffine(m: readonly number[], [x, y, z]: readonly [number, number, number]): Vec3 {
  const w = m[12]! * x + m[13]! * y + m[14]! * z + m[15]!;
  const s = w === 0 ? 1 : 1 / w;
  return [(m[0]! * x + m[1]! * y + m[2]! * z + m[3]!) * s, (m[4]! * x + m[5]! * y + m[6]! * z + m[7]!) * s, (m[8]! * x + m[9]! * y + m[10]! * z + m[11]!) * s];
}

/** The inverse of a 4×4 row-major matrix by Gauss-Jordan elimination, or null when it has none. */
export function invertAffine(m: readonly number[]): number[] | null {
  const a = [0, 1, 2, 3].map((r) => [...m.slice(r * 4, r * 4 + 4), ...[0, 1, 2, 3].map((c) => (c === r ? 1 : 0))]);
  for (let col = 0; col < 4; col++) {
    let pivot = col;
    for (let r = col + 1; r < 4; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    if (Math.abs(a[pivot]![col]!) < 1e-12) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const row = a[col]!;
    const p = row[col]!;
    for (let c = 0; c < 8; c++) row[c] = row[c]! / p;
    for (let r = 0; r < 4; r++) {
      if (r === col) continue;
      const f = a[r]![col]!;
      if (f !== 0) for (let c = 0; c < 8; c++) a[r]![c] = a[r]![c]! - f * row[c]!;
    }
  }
  return a.flatMap((row) => row.slice(4));
}

/** Makes the function that takes a mark's point (made on `markLayer`, or the room) into `frame`'s layer. */
export function intoLayerFrame(frame: BoundFrame): (point: Vec3, markLayer: string | undefined) => Vec3 {
  const target = frame.affines.get(frame.layer);
  const down = target ? invertAffine(target) : null;
  return (point, markLayer) => {
    if (markLayer === frame.layer) return point;
    const own = markLayer !== undefined ? frame.affines.get(markLayer) : undefined;
    const room = own ? applyAffine(own, point) : point;
    return down ? applyAffine(down, room) : room;
  };
}
