/**
 * @module supershape-surface
 * Gielis' superformula, r(θ) = (|cos(mθ/4)|^n2 + |sin(mθ/4)|^n3)^(-1/n1), applied to longitude
 * and latitude (the spherical product of two supershapes, after Paul Bourke).
 */
import type { SurfacePoint } from './parametric-surface.ts';

/** Superformula radius at angle `angle`. Non-finite values (n1 → 0) are capped. */
export function superformula(angle: number, m: number, n1: number, n2: number, n3: number): number {
  const a = Math.abs(Math.cos((m * angle) / 4)) ** n2;
  const b = Math.abs(Math.sin((m * angle) / 4)) ** n3;
  const r = (a + b) ** (-1 / n1);
  return Number.isFinite(r) ? Math.min(r, 1e6) : 1e6;
}

/** Parameters of one superformula profile. */
export interface Profile { m: number; n1: number; n2: number; n3: number }

/**
 * The supershape surface: `u` is longitude (closed), `v` latitude from the south pole to the
 * north pole; y is up. Unscaled: callers normalise the extent.
 */
export function supershapeSurface(longitude: Profile, latitude: Profile): SurfacePoint {
  return (u, v, out) => {
    const theta = -Math.PI + u * 2 * Math.PI;
    const phi = -Math.PI / 2 + v * Math.PI;
    const r1 = superformula(theta, longitude.m, longitude.n1, longitude.n2, longitude.n3);
    const r2 = superformula(phi, latitude.m, latitude.n1, latitude.n2, latitude.n3);
    out[0] = r1 * Math.cos(theta) * r2 * Math.cos(phi);
    out[1] = r2 * Math.sin(phi);
    out[2] = r1 * Math.sin(theta) * r2 * Math.cos(phi);
  };
}
