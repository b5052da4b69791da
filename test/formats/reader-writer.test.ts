/**
 * Each format's writer and reader agree: what the host writes for a download, the host reads
 * back as the same result when the file comes in again (an upload, a published file, a static
 * specimen). The file goes through the path files take, parseCheckedFile: the reader picked by
 * extension, then the check every result passes.
 */
import { describe, expect, it } from 'vitest';
import { encodeGlb } from '../../core/formats/glb/encode-glb.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { encodeObj } from '../../core/formats/obj/encode-obj.ts';
import { parseByExtension } from '../../core/formats/parse-file.ts';
import { FormatError } from '../../core/formats/format-error.ts';
import { encodePly } from '../../core/formats/ply/encode-ply.ts';
import { encodeMeshPly } from '../../core/formats/ply/encode-mesh-ply.ts';
import { encodeImagePng } from '../../core/formats/png/encode-image-png.ts';
import { encodeStl } from '../../core/formats/stl/encode-stl.ts';
import { parseCheckedFile } from '../../core/results/parse-checked-file.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { byteVolume, cloud, image, rampVolume, wavyGrid } from '../delivery/sample-results.ts';

type Of<T extends StoredResult['type']> = StoredResult & { type: T };

async function readBack<T extends StoredResult['type']>(bytes: Uint8Array, fileName: string, type: T): Promise<Of<T>> {
  const result = await parseCheckedFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), fileName);
  expect(result.type).toBe(type);
  return result as Of<T>;
}

/** The corners of each triangle as coordinates, so meshes compare whatever their vertex order. */
function corners(mesh: Of<'mesh'>): number[][] {
  return Array.from({ length: mesh.indices.length / 3 }, (_, t) =>
    [0, 1, 2].flatMap((k) => Array.from(mesh.vertices.subarray(mesh.indices[t * 3 + k]! * 3, mesh.indices[t * 3 + k]! * 3 + 3))),
  );
}

const mesh = wavyGrid(6);

describe('a format read back as what its writer wrote', () => {
  it.each([rampVolume(), byteVolume()])('npy: the $dtype volume with its shape, samples and value range', async (volume) => {
    const back = await readBack(encodeNpy(volume), 'volume.npy', 'volume');
    expect([back.shape, back.dtype]).toEqual([volume.shape, volume.dtype]);
    expect(Array.from(back.data)).toEqual(Array.from(volume.data));
    const samples = Array.from(volume.data as ArrayLike<number>);
    expect(back.valueRange).toEqual([Math.min(...samples), Math.max(...samples)]);
  });

  it('stl: the same triangles (welded, so compared corner by corner)', async () => {
    expect(corners(await readBack(encodeStl(mesh), 'mesh.stl', 'mesh'))).toEqual(corners(mesh));
  });

  it('obj: the same vertices and faces', async () => {
    const back = await readBack(encodeObj(mesh), 'mesh.obj', 'mesh');
    expect(Array.from(back.vertices)).toEqual(Array.from(mesh.vertices));
    expect(Array.from(back.indices)).toEqual(Array.from(mesh.indices));
  });

  it('obj without normals: every face a plain `f a b c` (all Neuroglancer reads), a mesh with normals shaded smooth', async () => {
    expect(mesh.normals).toBeDefined();
    const bytes = encodeObj(mesh, { normals: false });
    const back = await readBack(bytes, 'mesh.obj', 'mesh');
    expect(Array.from(back.indices)).toEqual(Array.from(mesh.indices));
    const lines = new TextDecoder().decode(bytes).split('\n');
    expect(lines.some((line) => line.startsWith('vn '))).toBe(false);
    const faces = lines.filter((line) => line.startsWith('f '));
    expect(faces).toHaveLength(mesh.indices.length / 3);
    // Neuroglancer's own pattern for a face line.
    for (const face of faces) expect(face).toMatch(/^f\s+([0-9]+)\s+([0-9]+)\s+([0-9]+)\s*$/);
    expect(lines).toContain('s 1');
  });

  it('glb: the same vertices and faces', async () => {
    const back = await readBack(await encodeGlb(mesh, { meshopt: false }), 'mesh.glb', 'mesh');
    expect(corners(back)).toEqual(corners(mesh));
  });

  it('ply: a mesh with the same vertices and faces (its normals and colours beside them)', async () => {
    const painted = { ...mesh, colors: new Uint8Array((mesh.vertices.length / 3) * 3).fill(200) };
    const back = await readBack(encodeMeshPly(painted), 'mesh.ply', 'mesh');
    expect(Array.from(back.vertices)).toEqual(Array.from(mesh.vertices));
    expect(Array.from(back.indices)).toEqual(Array.from(mesh.indices));
  });

  it('ply: the same points and byte colours', async () => {
    const points = cloud('bytes', false);
    const back = await readBack(encodePly(points), 'cloud.ply', 'point_cloud');
    expect(Array.from(back.points)).toEqual(Array.from(points.points));
    expect(Array.from(back.colors!)).toEqual(Array.from(points.colors!));
  });

  it.each([4, 3] as const)('png: a uint8 image of %i channels as the same RGBA samples', async (channels) => {
    const picture = image('uint8', channels);
    const back = await readBack(encodeImagePng(picture), 'image.png', 'image');
    expect([back.width, back.height, back.channels]).toEqual([picture.width, picture.height, 4]);
    const rgba = Array.from({ length: picture.width * picture.height }, (_, p) => {
      const px = Array.from(picture.data.subarray(p * channels, (p + 1) * channels));
      return channels === 4 ? px : [...px, 255];
    }).flat();
    expect(Array.from(back.data)).toEqual(rgba);
  });
});

describe('reading a file and checking it', () => {
  it('the reader alone gives the typed arrays; the check adds what every result carries (a volume its value range)', async () => {
    const bytes = Buffer.from(encodeNpy(rampVolume()));
    expect((await parseByExtension(bytes, 'v.npy')) as StoredResult).not.toHaveProperty('valueRange');
    expect(await parseCheckedFile(bytes, 'v.npy')).toHaveProperty('valueRange');
  });

  it('refuses a file no reader reads, and a file its reader refuses, as FormatError', async () => {
    await expect(parseCheckedFile(Buffer.from('x'), 'notes.txt')).rejects.toThrow(new FormatError("no parser reads '.txt' files"));
    await expect(parseCheckedFile(Buffer.from('not an stl'), 'mesh.stl')).rejects.toBeInstanceOf(FormatError);
  });
});
