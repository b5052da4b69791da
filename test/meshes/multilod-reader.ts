/**
 * @module multilod-reader
 * A reader of Neuroglancer's precomputed multi-resolution meshes written from the format's
 * documentation (neuroglancer `src/datasource/precomputed/meshes.md`), not from vitrine's
 * writer: the `info` JSON, a segment's binary manifest (`<segment>.index`), and the header of
 * each Draco fragment (Draco's bitstream: the magic `DRACO`, version, geometry and method),
 * whose contents are then decoded by Google's own decoder (draco3d).
 */
// @ts-expect-error -- draco3d ships no type declarations.
import draco3d from 'draco3d';

export interface MultilodInfo {
  type: string;
  quantizationBits: number;
  /** 3 × 4, row-major: stored model → model coordinates. */
  transform: number[];
  lodScaleMultiplier: number;
}

export function readInfo(json: Record<string, unknown>): MultilodInfo {
  const transform = json.transform as number[];
  if (json['@type'] !== 'neuroglancer_multilod_draco') throw new Error(`@type is ${String(json['@type'])}`);
  if (json.vertex_quantization_bits !== 10 && json.vertex_quantization_bits !== 16) throw new Error('vertex_quantization_bits must be 10 or 16');
  if (!Array.isArray(transform) || transform.length !== 12 || !transform.every(Number.isFinite)) throw new Error('transform must be 12 numbers');
  if (!(typeof json.lod_scale_multiplier === 'number' && json.lod_scale_multiplier > 0)) throw new Error('lod_scale_multiplier must be positive');
  return { type: json['@type'], quantizationBits: json.vertex_quantization_bits, transform, lodScaleMultiplier: json.lod_scale_multiplier };
}

export interface Manifest {
  chunkShape: number[];
  gridOrigin: number[];
  lodScales: number[];
  vertexOffsets: number[][];
  /** Per level: each fragment's [x, y, z] position and its byte size. */
  levels: { positions: [number, number, number][]; sizes: number[] }[];
}

/** The manifest, every field little-endian as the documentation lists them; its length must be exact. */
export function readManifest(bytes: Uint8Array): Manifest {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const f32 = () => ((at += 4), view.getFloat32(at - 4, true));
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const chunkShape = [f32(), f32(), f32()];
  const gridOrigin = [f32(), f32(), f32()];
  const numLods = u32();
  const lodScales = Array.from({ length: numLods }, f32);
  const vertexOffsets = Array.from({ length: numLods }, () => [f32(), f32(), f32()]);
  const counts = Array.from({ length: numLods }, u32);
  const levels = counts.map((n) => {
    const xs = Array.from({ length: n }, u32);
    const ys = Array.from({ length: n }, u32);
    const zs = Array.from({ length: n }, u32);
    const sizes = Array.from({ length: n }, u32);
    return { positions: xs.map((x, i) => [x, ys[i]!, zs[i]!] as [number, number, number]), sizes };
  });
  if (at !== bytes.byteLength) throw new Error(`manifest is ${bytes.byteLength} bytes, its fields take ${at}`);
  return { chunkShape, gridOrigin, lodScales, vertexOffsets, levels };
}

/** Whether (x0, y0, z0) comes before (x1, y1, z1) on the Z-curve (x the lowest bit of each triple). */
export function zBefore(a: readonly number[], b: readonly number[]): boolean {
  // The axis whose differing bit is the highest decides; on a tie of bit positions, z over y over x.
  let axis = -1;
  let top = -1;
  for (let k = 0; k < 3; k++) {
    const diff = a[k]! ^ b[k]!;
    if (diff === 0) continue;
    const bit = 31 - Math.clz32(diff);
    if (bit > top || (bit === top && k > axis)) {
      top = bit;
      axis = k;
    }
  }
  return axis >= 0 && a[axis]! < b[axis]!;
}

export interface DracoHeader {
  major: number;
  minor: number;
  /** 0 point cloud, 1 triangular mesh. */
  geometry: number;
  /** 0 sequential, 1 edgebreaker. */
  method: number;
  flags: number;
}

/** The Draco bitstream's header: "DRACO", major, minor, encoder type, encoder method (uint8 each), flags (uint16). */
export function readDracoHeader(bytes: Uint8Array): DracoHeader {
  if (bytes.byteLength < 11 || new TextDecoder().decode(bytes.subarray(0, 5)) !== 'DRACO') throw new Error('not a Draco bitstream');
  return { major: bytes[5]!, minor: bytes[6]!, geometry: bytes[7]!, method: bytes[8]!, flags: bytes[9]! | (bytes[10]! << 8) };
}

/** A fragment decoded by Google's Draco decoder: integer positions (3 per vertex) and triangles. */
export async function decodeFragment(bytes: Uint8Array): Promise<{ positions: Int32Array; indices: Uint32Array }> {
  // draco3d ships no type declarations: its decoder's methods are used as its documentation names them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const dec = (await decoderModule) as any;
  const buffer = new dec.DecoderBuffer();
  buffer.Init(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes.byteLength);
  const decoder = new dec.Decoder();
  const mesh = new dec.Mesh();
  try {
    const status = decoder.DecodeBufferToMesh(buffer, mesh);
    if (!status.ok()) throw new Error(`Draco: ${status.error_msg()}`);
    const attribute = decoder.GetAttribute(mesh, decoder.GetAttributeId(mesh, dec.POSITION));
    if (attribute.data_type() !== dec.DT_INT32) throw new Error('positions are not integers');
    const values = new dec.DracoInt32Array();
    decoder.GetAttributeInt32ForAllPoints(mesh, attribute, values);
    const positions = Int32Array.from({ length: values.size() }, (_, i) => values.GetValue(i));
    dec.destroy(values);
    const faces = new dec.DracoUInt32Array();
    const indices = new Uint32Array(mesh.num_faces() * 3);
    for (let f = 0; f < mesh.num_faces(); f++) {
      decoder.GetFaceFromMesh(mesh, f, faces);
      for (let j = 0; j < 3; j++) indices[f * 3 + j] = faces.GetValue(j);
    }
    dec.destroy(faces);
    return { positions, indices };
  } finally {
    dec.destroy(mesh);
    dec.destroy(decoder);
    dec.destroy(buffer);
  }
}

const decoderModule: Promise<unknown> = (draco3d as { createDecoderModule(options: object): Promise<unknown> }).createDecoderModule({});
