/**
 * @module draco-decode
 * A Draco fragment read back by Google's own decoder (the `draco3d` package, loaded once per
 * thread): its integer positions and triangles, to assemble a level into one mesh.
 */
import { loadOnce } from '../loading/load-once.ts';

interface DracoDecoderModule {
  DecoderBuffer: new () => { Init(bytes: Int8Array, length: number): void };
  Decoder: new () => {
    DecodeBufferToMesh(buffer: object, mesh: object): { ok(): boolean; error_msg(): string };
    GetAttributeId(mesh: object, type: number): number;
    GetAttribute(mesh: object, id: number): object;
    GetAttributeDataArrayForAllPoints(mesh: object, attribute: object, type: number, bytes: number, pointer: number): boolean;
    GetTrianglesUInt32Array(mesh: object, bytes: number, pointer: number): boolean;
  };
  Mesh: new () => { num_faces(): number; num_points(): number };
  POSITION: number;
  DT_INT32: number;
  HEAP32: Int32Array;
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

/** `words` 32-bit values the decoder writes at a pointer it is given, copied out at once. */
function readWords<T extends Int32Array | Uint32Array>(draco: DracoDecoderModule, words: number, write: (pointer: number) => boolean, heap: () => T): T {
  const pointer = draco._malloc(words * 4);
  try {
    if (!write(pointer)) throw new Error('a Draco fragment does not give its data');
    // The heap is read after writing: the module's memory may have grown meanwhile.
    return heap().slice(pointer / 4, pointer / 4 + words) as T;
  } finally {
    draco._free(pointer);
  }
}

/** The positions (3 per point) and triangles of one Draco mesh. */
export async function decodeDraco(bytes: Uint8Array): Promise<{ positions: Int32Array; indices: Uint32Array }> {
  const draco = await decoderModule();
  const buffer = new draco.DecoderBuffer();
  const decoder = new draco.Decoder();
  const mesh = new draco.Mesh();
  try {
    buffer.Init(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), bytes.byteLength);
    const status = decoder.DecodeBufferToMesh(buffer, mesh);
    if (!status.ok()) throw new Error(`a Draco fragment does not decode: ${status.error_msg()}`);
    const attribute = decoder.GetAttribute(mesh, decoder.GetAttributeId(mesh, draco.POSITION));
    const values = mesh.num_points() * 3;
    const read = (at: number): boolean => decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, draco.DT_INT32, values * 4, at);
    const positions = readWords(draco, values, read, () => draco.HEAP32);
    const count = mesh.num_faces() * 3;
    const indices = readWords(draco, count, (at) => decoder.GetTrianglesUInt32Array(mesh, count * 4, at), () => draco.HEAPU32);
    return { positions, indices };
  } finally {
    for (const object of [mesh, decoder, buffer]) draco.destroy(object);
  }
}
