/**
 * @module headset-file
 * Static mesh files for a headset that cannot load them. The Godot client reads STL, OBJ and
 * FBX meshes at run time, not GLB or PLY: when it asks for a static `.glb` or `.ply` mesh
 * with no delivery options of its own, the file is read as a mesh and travels as binary STL
 * (named `<stem>.stl`) within the headset triangle budget. A PLY holding points, not faces,
 * travels as it is.
 */
import path from 'node:path';
import { isHeadsetClient, type ClientProfileSettings } from './client-profile.ts';
import { isEmptyDelivery, type DeliveryOptions } from './delivery-options.ts';

/** File extensions the headset cannot load as meshes. */
const CONVERTED = new Set(['.glb', '.ply']);

/**
 * The delivery a static file gets for this request instead of its own bytes, or null when
 * it travels as it is.
 */
export function headsetFileDelivery(
  fileName: string,
  asked: DeliveryOptions,
  userAgent: string | undefined,
  settings: ClientProfileSettings,
): DeliveryOptions | null {
  if (!settings.clientProfiles || !isEmptyDelivery(asked) || !isHeadsetClient(userAgent)) return null;
  if (!CONVERTED.has(path.extname(fileName).toLowerCase())) return null;
  return { format: 'stl', max_triangles: settings.headsetTriangles };
}

/** The download name's stem: the file name without its extension. */
export function fileStem(fileName: string): string {
  return path.basename(fileName, path.extname(fileName));
}
