/**
 * @module file-encoders
 * The download formats as FormatEncoders (the delivery seam): a mesh as GLB (plain, or
 * meshopt-compressed with `compress=meshopt`), binary STL, OBJ (without normals with
 * `normals=false`), PLY (with its colours) or legacy ASCII VTK (the triangles alone: what
 * Neuroglancer's VTK reader takes); a volume as NumPy `.npy`; a point cloud as binary PLY; an
 * image as PNG. Each takes one kind of result; media types are
 * the ones static files of the same extension are served with. The writers themselves live
 * with their readers, one folder per format under formats/.
 */
import { dataMediaType } from '../catalog/file-media-types.ts';
import { encodeGlb } from '../formats/glb/encode-glb.ts';
import { encodeNpy } from '../formats/npy/encode-npy.ts';
import { encodeObj } from '../formats/obj/encode-obj.ts';
import { encodePly } from '../formats/ply/encode-ply.ts';
import { encodeMeshPly } from '../formats/ply/encode-mesh-ply.ts';
import { encodeImagePng } from '../formats/png/encode-image-png.ts';
import { encodeStl } from '../formats/stl/encode-stl.ts';
import { encodeVtk } from '../formats/vtk/encode-vtk.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import type { EncodeNames, FormatEncoder } from './format-encoder.ts';

type Of<T extends ResultType> = StoredResult & { type: T };

/** A file encoder for results of `type`; a result of another type is a programming error. */
function fileEncoder<T extends ResultType>(
  type: T,
  format: string,
  encode: (result: Of<T>, options: DeliveryOptions, names: EncodeNames) => Uint8Array | Promise<Uint8Array>,
): FormatEncoder {
  const mediaType = dataMediaType(`file.${format}`);
  return {
    type,
    format,
    extension: format,
    mediaType: () => mediaType,
    async encode(result, options, names) {
      if (result.type !== type) throw new TypeError(`format ${format} holds ${type} results, not ${result.type}`);
      return [await encode(result as Of<T>, options, names)];
    },
  };
}

export const glbEncoder = fileEncoder('mesh', 'glb', (mesh, { compress }) => encodeGlb(mesh, { meshopt: compress === 'meshopt' }));
export const stlEncoder = fileEncoder('mesh', 'stl', (mesh) => encodeStl(mesh));
export const objEncoder = fileEncoder('mesh', 'obj', (mesh, { normals }, { maxBytes }) => encodeObj(mesh, { normals: normals !== false, maxBytes }));
export const meshPlyEncoder = fileEncoder('mesh', 'ply', (mesh) => encodeMeshPly(mesh));
export const vtkEncoder = fileEncoder('mesh', 'vtk', (mesh, _options, { maxBytes }) => encodeVtk(mesh, { maxBytes }));
export const npyEncoder = fileEncoder('volume', 'npy', (volume) => encodeNpy(volume));
export const plyEncoder = fileEncoder('point_cloud', 'ply', (cloud) => encodePly(cloud));
export const pngEncoder = fileEncoder('image', 'png', (image) => encodeImagePng(image));

/** Every download format, for the format registry. */
export const FILE_ENCODERS: readonly FormatEncoder[] = [glbEncoder, stlEncoder, objEncoder, meshPlyEncoder, vtkEncoder, npyEncoder, plyEncoder, pngEncoder];
