/**
 * @module draco-decode
 * A Draco fragment read back by Google's own decoder (the `draco3d` package, loaded once per
 * thread): its integer positions and triangles, to assemble a level into one mesh.
 */
import { loadOnce } from '../loading/load-once.ts';

interface DracoArray {
  GetValue(i: number): number;
  size(): number;
}

interface DracoDecoderModule {
  DecoderBuffer: new () => { Init(bytes: Int8Array, length: number): void };
  Decoder: new () => {
    DecodeBufferToMesh(buffer: object, mesh: object): { ok(): boolean; error_msg(): string };
    GetAttributeId(mesh: object, type: number): number;
    GetAttribute(mesh: object, id: number): object;
    GetAttributeInt32ForAllPoints(mesh: object, attribute: object, out: DracoArray): boolean;
    GetTrianglesUInt32Array(mesh: object, bytes: number, pointer: number): boolean;
  };
  Mesh: new () => { num_faces(): number; num_points(): number };
  DracoInt32Array: new () => DracoArray;
  POSITION: number;
  HEAPU32: Uint32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  destroy(object: object): void;
}

const decoderModule = loadOnce(async (): Promise<DracoDecoderModule> => {
  // @ts-expect-error -- draco3d ships no type declarations: the part used is declared above.
  const draco = ((await import('draco3d')) as { default: { createDecoderModule(options: object): Promise<DracoDecoderModule> } }).default;
  return draco.createDecoderModule({});
});

/** The positions (3 per point) and triangles of one Draco mesh. */
export async function decodeDraco(bytes: Uint8Array): Promise<{ positions: Int32Array; indices: Uint32Array }> {
  const draco = await decoderModule();
  const buffer = new draco.DecoderBuffer();
  const decoder = new draco.Decoder();
  const mesh = new draco.Mesh();
  const values = new draco.DracoInt32Array();
  try {
    buffer.Init(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes.byteLength);
    const status = decoder.DecodeBufferToMesh(buffer, mesh);
    if (!status.ok()) throw new Error(`a Draco fragment does not decode: ${status.error_msg()}`);
    decoder.GetAttributeInt32ForAllPoints(mesh, decoder.GetAttribute(mesh, decoder.GetAttributeId(mesh, draco.POSITION)), values);
    const positions = new Int32Array(values.size());
    for (let i = 0; i < positions.length; i++) positions[i] = values.GetValue(i);
    const count = mesh.num_faces() * 3;
    const pointer = draco._malloc(count * 4);
    try {
      decoder.GetTrianglesUInt32Array(mesh, count * 4, pointer);
      return { positions, indices: draco.HEAPU32.slice(pointer / 4, pointer / 4 + count) };
    } finally {
      draco._free(pointer);
    }
  } finally {
    for (const object of [values, mesh, decoder, buffer]) draco.destroy(object);
  }
}
