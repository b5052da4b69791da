/**
 * @module lod-budget
 * What a layer drawn from levels of detail may spend each frame and hold. A headset draws two
 * views at 72-120 Hz: 300,000 triangles a frame (practitioners' budget for a Quest), and 64 MiB
 * of fragments held. A desktop page draws one view at 60 Hz on a desktop GPU: 2,000,000
 * triangles a frame, 256 MiB held. The page's budget can be set by its URL (`lod_triangles=N`,
 * to see on a desktop what a headset draws); the headset's is its triangle budget in VR
 * (`xr_triangles`, xr/triangle-budget.ts), which the caller hands over.
 */

/** Triangles a frame on a desktop page unless its URL says otherwise. */
export const PAGE_TRIANGLES = 2_000_000;

/** Bytes of fragments a layer holds on a page and in a headset. */
export const PAGE_BYTES = 256 * 2 ** 20;
export const HEADSET_BYTES = 64 * 2 ** 20;

/** Requests of one layer in flight at once (a browser opens six connections to a host). */
export const LOD_CONCURRENCY = 6;

/** A layer's frame budgets, in triangles. */
export type LodBudget = Record<'page' | 'headset', number>;

/** The page's budget: `lod_triangles` of its query when it is a positive integer, else PAGE_TRIANGLES. */
export function pageTriangleBudget(search: string = window.location.search): number {
  const raw = new URLSearchParams(search).get('lod_triangles');
  const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : PAGE_TRIANGLES;
}
