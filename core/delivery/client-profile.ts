/**
 * @module client-profile
 * Known clients that cannot ask for a delivery get one they can show. The Godot headset
 * client (User-Agent `GodotEngine/...`) uploads volumes to a ray marcher that expects values
 * in [0, 1] and has a per-frame triangle budget: unless the request names delivery options
 * itself (choosing a step with `t` and `c` is not one), its volumes travel as uint8 over their
 * value range at most 256 samples per axis, and its meshes within the headset triangle budget.
 * A segmentation travels the same way with its ids picked, never averaged, and renumbered to
 * fit uint8 (shape-volume.ts); a segment's surface (`segment=`, which says what to send, not
 * how) as a mesh within budget.
 */
import type { ResultType } from '../sdk/result-types.ts';
import { asksNothingOfTravel, type DeliveryOptions } from './delivery-options.ts';

export interface ClientProfileSettings {
  /** Apply known client profiles at all (`--client-profiles on|off`). */
  clientProfiles: boolean;
  /** Most triangles a headset client is sent (`--headset-triangles`). */
  headsetTriangles: number;
}

/** Volumes for the headset: every axis at most this many samples. */
export const HEADSET_MAX_DIM = 256;

/** True for the Godot engine's HTTP client. */
export function isHeadsetClient(userAgent: string | undefined): boolean {
  return typeof userAgent === 'string' && userAgent.startsWith('GodotEngine/');
}

/** The options a request gets: its own, or its client's profile when it gave none. */
export function withClientProfile(options: DeliveryOptions, type: ResultType, userAgent: string | undefined, settings: ClientProfileSettings): DeliveryOptions {
  const { segment, ...how } = options;
  if (segment !== undefined && type === 'volume') {
    if (!settings.clientProfiles || !asksNothingOfTravel(how) || !isHeadsetClient(userAgent)) return options;
    return { ...options, max_triangles: settings.headsetTriangles };
  }
  if (!settings.clientProfiles || !asksNothingOfTravel(options) || !isHeadsetClient(userAgent)) return options;
  // A step of a volume with time or channels (`t`, `c`) gets the profile too.
  if (type === 'volume') return { ...options, dtype: 'uint8', max_dim: HEADSET_MAX_DIM };
  if (type === 'mesh') return { max_triangles: settings.headsetTriangles };
  return options;
}
