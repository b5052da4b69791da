/**
 * @module assemble-level
 * One level of one or more level sets as a single mesh in physical units, for a client that
 * takes a whole mesh (the Godot headset through `/data`): every fragment of the level decoded
 * (by draco3d) and placed as the manifest says, with smooth normals, and each set painted
 * in its colour when asked (every segment of a segmentation at once). Runs on an encode thread.
 */
import { MeshBuilder } from '../geometry/mesh-builder.ts';
import { loadOnce } from '../loading/load-once.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { placement } from './level-steps.ts';
import type { SegmentLods } from './level-set.ts';

/** Google's own Draco decoder (the `draco3d` package, loaded once per thread): the part used. */
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

/** A level of a set, and the colour its vertices are painted (none: unpainted). */
export interface LevelPart {
  lods: SegmentLods;
  level: number;
  rgb?: [number, number, number];
}

export async function assembleLevel(parts: LevelPart[]): Promise<StoredResult> {
  const triangles = parts.reduce((n, part) => n + part.lods.triangles[part.level]!, 0);
  const out = new MeshBuilder(Math.max(256, triangles));
  for (const { lods, level, rgb } of parts) {
    const from = out.vertexCount;
    // A mirrored transform turns faces inside out unless their winding is mirrored too.
    const flip = lods.transform[0]! * lods.transform[5]! * lods.transform[10]! < 0;
    for (const fragment of lods.fragments) {
      if (fragment.level !== level) continue;
      const place = placement(lods.plan, lods.transform, level, fragment.cell);
      const [offset, length] = fragment.draco;
      const { positions, indices } = await decodeDraco(lods.draco.subarray(offset, offset + length));
      const base = out.vertexCount;
      for (let v = 0; v < positions.length; v += 3) {
        out.vertex(...([0, 1, 2].map((k) => place.translation[k]! + place.scale[k]! * positions[v + k]!) as [number, number, number]));
      }
      for (let t = 0; t < indices.length; t += 3) {
        if (flip) out.triangle(base + indices[t]!, base + indices[t + 2]!, base + indices[t + 1]!);
        else out.triangle(base + indices[t]!, base + indices[t + 1]!, base + indices[t + 2]!);
      }
    }
    if (rgb) out.paint(from, rgb);
  }
  return out.finish();
}
