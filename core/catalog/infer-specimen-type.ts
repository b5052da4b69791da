/**
 * @module infer-specimen-type
 * The specimen `type` implied by a data file's extension, used when `specimen.json` states
 * none.
 */
import path from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.obj': 'mesh',
  '.ply': 'mesh',
  '.stl': 'mesh',
  '.glb': 'mesh',
  '.gltf': 'mesh',
  '.off': 'mesh',
  '.vtp': 'mesh',
  '.npy': 'volume',
  '.raw': 'volume',
  '.nrrd': 'volume',
  '.nii': 'volume',
  '.mrc': 'volume',
  '.pcd': 'point_cloud',
  '.xyz': 'point_cloud',
  '.las': 'point_cloud',
  '.laz': 'point_cloud',
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.tif': 'image',
  '.tiff': 'image',
  '.webp': 'image',
};

/** `mesh`, `volume`, `point_cloud` or `image` for a known extension, else null. */
export function inferSpecimenType(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  // `.nii.gz` is the usual compressed NIfTI volume.
  if (lower.endsWith('.nii.gz')) return 'volume';
  return BY_EXTENSION[path.extname(lower)] ?? null;
}
