/**
 * @module triangle-budget
 * How many triangles a mesh may have in VR: a headset draws two views at 72-120 Hz, so meshes
 * are asked for with `max_triangles` (300,000 unless the page's URL says `xr_triangles=N`).
 * The budget travels as a delivery option of `/data` (a query parameter): the host simplifies
 * the mesh for this client only, and the room's entry, its cache key and the peers' copies
 * stay the full result. A host that does not know the option ignores it and sends the mesh whole.
 */

/** Triangles a mesh may have in VR unless the URL says otherwise. */
export const DEFAULT_VR_TRIANGLES = 300_000;

/** The budget: `xr_triangles` of the page's query when it is a positive integer, else the default. */
export function vrTriangleBudget(search: string = window.location.search): number {
  const raw = new URLSearchParams(search).get('xr_triangles');
  const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value > 0 ? value : DEFAULT_VR_TRIANGLES;
}

/** The delivery options of a `/data` request for a specimen of `type` while in VR. */
export function vrDelivery(type: string, budget: number): Record<string, number> | undefined {
  return type === 'mesh' ? { max_triangles: budget } : undefined;
}
