/**
 * @module static-shaping
 * Whether the host shapes a static specimen's data (averages a volume down, simplifies a
 * mesh), known from its metadata before any request. The host reads a file into a result, and
 * so takes delivery options for it, only when one of its parsers reads the file's extension: a
 * `.npy` volume, a `.stl`, `.obj`, `.glb` or `.ply` mesh. Any other file (a `.gltf`, a `.xyz`)
 * it sends only as it is and answers a delivery option with a 400, as it does for a specimen it
 * relays from a worker (whose metadata names no data file). Asking up front keeps the page from
 * sending a request it knows will fail. test/unit/static-shaping.test.ts keeps this list in
 * step with the host's parsers.
 */
import type { SpecimenMetadata } from '../../core/wire/wire-types.ts';

/** Data file extensions the host shapes, by the specimen type coarse-first refines. */
export const SHAPED_EXTENSIONS: Readonly<Record<'volume' | 'mesh', readonly string[]>> = {
  volume: ['.npy'],
  mesh: ['.stl', '.obj', '.glb', '.ply'],
};

/** The lower-case extension of a file name, with its dot ('' when it has none). */
function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > fileName.lastIndexOf('/') && dot >= 0 ? fileName.slice(dot).toLowerCase() : '';
}

/** True when `meta` is a static volume or mesh whose data file the host can deliver shaped. */
export function hostShapesStatic(meta: Pick<SpecimenMetadata, 'type' | 'is_dynamic' | 'data_file'>): boolean {
  if (meta.is_dynamic || typeof meta.data_file !== 'string') return false;
  if (meta.type !== 'volume' && meta.type !== 'mesh') return false;
  return SHAPED_EXTENSIONS[meta.type].includes(extensionOf(meta.data_file));
}
