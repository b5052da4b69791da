/**
 * @module export-formats
 * The files a result can be downloaded as, one entry per format: the kind of result it
 * takes, its file extension, its media type and its encoder. The encoders are pure (result
 * in, bytes out) so they run on the encode thread.
 */
import { dataMediaType } from '../../catalog/file-media-types.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import type { ResultType } from '../../sdk/result-types.ts';
import { encodeImagePng } from './image-png.ts';
import { encodeGlb } from './mesh-glb.ts';
import { encodeObj } from './mesh-obj.ts';
import { encodeStl } from './mesh-stl.ts';
import { encodePly } from './point-cloud-ply.ts';
import { encodeNpy } from './volume-npy.ts';

export type ExportFormatName = 'glb' | 'stl' | 'obj' | 'npy' | 'ply' | 'png';

/** Options that change a file's bytes. */
export interface ExportOptions {
  /** GLB only: meshoptimizer compression with quantised attributes. */
  compress?: 'meshopt';
}

export interface ExportFormat {
  /** The kind of result this format holds. */
  resultType: ResultType;
  /** File extension without the dot. */
  extension: string;
  mediaType: string;
  encode(result: StoredResult, options: ExportOptions): Uint8Array | Promise<Uint8Array>;
}

function format(resultType: ResultType, extension: string, encode: ExportFormat['encode']): ExportFormat {
  return { resultType, extension, mediaType: dataMediaType(`file.${extension}`), encode };
}

/** Every export format by name. */
export const EXPORT_FORMATS: Readonly<Record<ExportFormatName, ExportFormat>> = {
  glb: format('mesh', 'glb', (r, o) => encodeGlb(r as StoredResult & { type: 'mesh' }, { meshopt: o.compress === 'meshopt' })),
  stl: format('mesh', 'stl', (r) => encodeStl(r as StoredResult & { type: 'mesh' })),
  obj: format('mesh', 'obj', (r) => encodeObj(r as StoredResult & { type: 'mesh' })),
  npy: format('volume', 'npy', (r) => encodeNpy(r as StoredResult & { type: 'volume' })),
  ply: format('point_cloud', 'ply', (r) => encodePly(r as StoredResult & { type: 'point_cloud' })),
  png: format('image', 'png', (r) => encodeImagePng(r as StoredResult & { type: 'image' })),
};

export function isExportFormat(name: string): name is ExportFormatName {
  return Object.hasOwn(EXPORT_FORMATS, name);
}

/**
 * The bytes of `result` as `name`.
 * @throws TypeError when the format does not hold this kind of result (callers check first).
 */
export async function encodeExport(result: StoredResult, name: ExportFormatName, options: ExportOptions): Promise<Uint8Array> {
  const entry = EXPORT_FORMATS[name];
  if (entry.resultType !== result.type) throw new TypeError(`format ${name} holds ${entry.resultType} results, not ${result.type}`);
  return entry.encode(result, options);
}
