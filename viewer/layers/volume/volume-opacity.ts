/**
 * @module volume-opacity
 * A ray-marched volume's opacity: the one number (0..1) the page shows, the room's view stores
 * and every follower applies, and the density the shader takes from it (how much each voxel
 * absorbs, volume-raymarch.ts). People and rooms only ever see the first; the second stays in
 * here. The mapping is linear, five times the opacity: a volume opens at 0.2 (density 1, a
 * soft look that shows the inside), 1 absorbs five times as much (a near-solid shell), 0
 * draws nothing. Five times is also what pages before this number was shared drew for the
 * values they stored, so a room's view kept from then looks the same.
 */

/** What a volume opens with while its room's view names no opacity. */
export const VOLUME_OPACITY_DEFAULT = 0.2;

/** True for a usable opacity (a number within 0..1); anything else leaves the volume as it is. */
export function isVolumeOpacity(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 1;
}

/** The ray marcher's density for `opacity` (0..1). */
export function densityOf(opacity: number): number {
  return 5 * Math.max(0, Math.min(1, opacity));
}
