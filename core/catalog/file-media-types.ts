/**
 * @module file-media-types
 * Content types of the files a specimen folder holds, chosen from the file extension:
 * data files (meshes, volumes, point clouds, images) and thumbnail images.
 */
import path from 'node:path';

const DATA_TYPES: Record<string, string> = {
  '.glb': 'model/gltf-binary',
  '.gltf': 'model/gltf+json',
  '.obj': 'model/obj',
  '.mtl': 'model/mtl',
  '.stl': 'model/stl',
  '.ply': 'application/octet-stream',
  '.off': 'application/octet-stream',
  '.vtk': 'application/octet-stream',
  '.vtp': 'application/octet-stream',
  '.npy': 'application/octet-stream',
  '.raw': 'application/octet-stream',
  '.nrrd': 'application/octet-stream',
  '.nii': 'application/octet-stream',
  '.pcd': 'application/octet-stream',
  '.las': 'application/octet-stream',
  '.laz': 'application/octet-stream',
  '.xyz': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.avif': 'image/avif',
};

function extension(fileName: string): string {
  return path.extname(fileName).toLowerCase();
}

/** The image content type of `fileName`, or null when its extension is not an image's. */
export function imageMediaType(fileName: string): string | null {
  return IMAGE_TYPES[extension(fileName)] ?? null;
}

/** The content type a static data file is served with; `application/octet-stream` when unknown. */
export function dataMediaType(fileName: string): string {
  const ext = extension(fileName);
  return DATA_TYPES[ext] ?? IMAGE_TYPES[ext] ?? 'application/octet-stream';
}
