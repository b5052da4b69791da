/**
 * @module draco-fragment
 * A fragment's Draco bytes, written by Google's own encoder (the `draco3d` package, loaded once
 * per thread): its quantised positions as a 3-component integer attribute (Neuroglancer reads
 * them as they are: Draco's own quantisation is not used) and its triangles, by edgebreaker.
 */
import { loadOnce } from '../loading/load-once.ts';
import type { Fragment } from './level-fragments.ts';

interface DracoEncoderModule {
  Mesh: new () => object;
  MeshBuilder: new () => {
    AddFacesToMesh(mesh: object, faces: number, indices: Uint32Array): boolean;
    AddInt32AttributeToMesh(mesh: object, type: number, vertices: number, components: number, values: Int32Array): number;
  };
  Encoder: new () => {
    SetSpeedOptions(encode: number, decode: number): void;
    SetEncodingMethod(method: number): void;
    EncodeMeshToDracoBuffer(mesh: object, out: object): number;
  };
  DracoInt8Array: new () => { ptr: number; GetValue(i: number): number };
  /** The module's memory as bytes and as words (replaced when the memory grows: read after encoding). */
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  POSITION: number;
  MESH_EDGEBREAKER_ENCODING: number;
  destroy(object: object): void;
}

const encoderModule = loadOnce(async (): Promise<DracoEncoderModule> => {
  // @ts-expect-error -- draco3d ships no type declarations: the part used is declared above.
  const draco = ((await import('draco3d')) as { default: { createEncoderModule(options: object): Promise<DracoEncoderModule> } }).default;
  return draco.createEncoderModule({});
});

/**
 * Speed 7 of 0..10: with edgebreaker, the fastest that writes the same bytes as the middle
 * setting (5) for these fragments; 10 writes about 6% more.
 */
const SPEED = 7;

type EncodedArray = InstanceType<DracoEncoderModule['DracoInt8Array']>;

/**
 * The encoded bytes, copied out of the module's memory at once. The array object holds a
 * `std::vector<int8_t>` as its first member (begin and end pointers, 32-bit in WebAssembly);
 * its bytes are read there when the vector says it holds exactly `length` bytes and its first
 * and last agree with the array's own accessor, else one call per byte (the slow, sure way).
 */
function bytesOf(draco: DracoEncoderModule, out: EncodedArray, length: number): Uint8Array {
  const begin = draco.HEAPU32[out.ptr >>> 2]!;
  const end = draco.HEAPU32[(out.ptr >>> 2) + 1]!;
  if (end - begin === length && draco.HEAPU8[begin] === (out.GetValue(0) & 0xff) && draco.HEAPU8[end - 1] === (out.GetValue(length - 1) & 0xff)) {
    return draco.HEAPU8.slice(begin, end);
  }
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = out.GetValue(i);
  return bytes;
}

export async function encodeDracoFragment(fragment: Fragment): Promise<Uint8Array> {
  const draco = await encoderModule();
  const mesh = new draco.Mesh();
  const builder = new draco.MeshBuilder();
  const encoder = new draco.Encoder();
  const out = new draco.DracoInt8Array();
  try {
    builder.AddFacesToMesh(mesh, fragment.indices.length / 3, fragment.indices);
    builder.AddInt32AttributeToMesh(mesh, draco.POSITION, fragment.positions.length / 3, 3, Int32Array.from(fragment.positions));
    encoder.SetSpeedOptions(SPEED, SPEED);
    encoder.SetEncodingMethod(draco.MESH_EDGEBREAKER_ENCODING);
    const length = encoder.EncodeMeshToDracoBuffer(mesh, out);
    if (length <= 0) throw new Error(`Draco could not encode a fragment of ${fragment.indices.length / 3} triangles`);
    return bytesOf(draco, out, length);
  } finally {
    for (const object of [out, encoder, builder, mesh]) draco.destroy(object);
  }
}
