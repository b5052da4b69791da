/**
 * @module torus-knot-curve
 * The centre line of a (p, q) torus knot and a tube swept along it.
 */
import type { SurfacePoint } from './parametric-surface.ts';

/** Writes the knot's centre-line point at angle `t` (0..2πp) into `out`. */
function knotPoint(p: number, q: number, radius: number, t: number, out: Float64Array): void {
  const ring = radius * (2 + Math.cos((q / p) * t)) * 0.5;
  out[0] = ring * Math.cos(t);
  out[1] = radius * Math.sin((q / p) * t) * 0.5;
  out[2] = ring * Math.sin(t);
}

/**
 * A tube of radius `tube` around the (p, q) torus knot. `u` runs along the knot, `v` around
 * the tube; both directions are closed.
 */
export function torusKnotTube(p: number, q: number, radius: number, tube: number): SurfacePoint {
  const here = new Float64Array(3);
  const ahead = new Float64Array(3);
  return (u, v, out) => {
    const t = u * p * Math.PI * 2;
    knotPoint(p, q, radius, t, here);
    knotPoint(p, q, radius, t + 0.01, ahead);
    // A frame from the tangent and the (here + ahead) direction, which points away from the
    // torus axis, so the tube never twists abruptly.
    const tx = ahead[0]! - here[0]!, ty = ahead[1]! - here[1]!, tz = ahead[2]! - here[2]!;
    const sx = ahead[0]! + here[0]!, sy = ahead[1]! + here[1]!, sz = ahead[2]! + here[2]!;
    let bx = ty * sz - tz * sy, by = tz * sx - tx * sz, bz = tx * sy - ty * sx;
    let nx = by * tz - bz * ty, ny = bz * tx - bx * tz, nz = bx * ty - by * tx;
    const bl = Math.hypot(bx, by, bz), nl = Math.hypot(nx, ny, nz);
    bx /= bl; by /= bl; bz /= bl;
    nx /= nl; ny /= nl; nz /= nl;
    const angle = v * Math.PI * 2;
    const cx = -tube * Math.cos(angle), cy = tube * Math.sin(angle);
    out[0] = here[0]! + cx * nx + cy * bx;
    out[1] = here[1]! + cx * ny + cy * by;
    out[2] = here[2]! + cx * nz + cy * bz;
  };
}
