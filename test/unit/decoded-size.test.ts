/**
 * Decoded sizes counted before parsing, for every upload format: images by pixels × channels
 * × bytes per sample (or the RGBA kept, when larger), volumes by samples, meshes by vertices
 * and triangles (a long face fans out), GLB by its drawn primitives and accessors; and the
 * check that refuses past a limit and lets a file at it through.
 */
import { describe, expect, it } from 'vitest';
import { checkDecodedSize, decodedSizeOf } from '../../core/formats/check-decoded-size.ts';
import { DecodedSizeError } from '../../core/formats/decoded-size.ts';
import { FormatError } from '../../core/formats/format-error.ts';
import { parseCheckedFile } from '../../core/results/parse-checked-file.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { pngOfZeros } from '../helpers/png-bomb.ts';
import { asciiPlyCloud, asciiStl, binaryPlyTriangle, binaryStl, glbTriangle, OBJ_SQUARE, png } from '../helpers/upload-files.ts';

describe('decoded size', () => {
  it('counts a PNG from its header: the samples as stored, or the RGBA kept when that is larger', () => {
    expect(decodedSizeOf(pngOfZeros(16384, 16384), '.png')).toEqual({ bytes: 16384 * 16384 * 4, what: '16384×16384 pixels × 4 channels × 1 byte' });
    expect(decodedSizeOf(pngOfZeros(16384, 16384, { bitDepth: 16 }), '.png').bytes).toBe(16384 * 16384 * 8);
    expect(decodedSizeOf(pngOfZeros(100, 50, { channels: 1 }), '.png')).toEqual({ bytes: 100 * 50 * 4, what: '100×50 pixels as 8-bit RGBA' });
    expect(decodedSizeOf(png(4, 3), '.png').bytes).toBe(48);
  });

  it('counts a volume by its samples and meshes by vertices and triangles', () => {
    expect(decodedSizeOf(npyBytes([2, 3, 4]), '.npy')).toEqual({ bytes: 96, what: '24 samples of 4 bytes' });
    // 12 triangles: at most 36 welded vertices.
    expect(decodedSizeOf(binaryStl(), '.stl')).toEqual({ bytes: 36 * 12 + 12 * 12, what: '36 vertices and 12 triangles' });
    expect(decodedSizeOf(asciiStl(), '.stl').bytes).toBe(36 * 12 + 12 * 12);
    // The square's one face has four corners: two triangles.
    expect(decodedSizeOf(OBJ_SQUARE, '.obj')).toEqual({ bytes: 4 * 12 + 2 * 12, what: '4 vertices and 2 triangles' });
    expect(decodedSizeOf(binaryPlyTriangle(), '.ply')).toEqual({ bytes: 3 * 12 + 12 + 9, what: '3 vertices and 1 triangle' });
    expect(decodedSizeOf(asciiPlyCloud(10), '.ply').bytes).toBe(10 * 15);
  });

  it('counts the triangles a long face fans out to, in OBJ and in PLY lists', () => {
    const corners = Array.from({ length: 1000 }, (_, i) => (i % 3) + 1).join(' ');
    expect(decodedSizeOf(Buffer.from(`v 0 0 0\nv 1 0 0\nv 0 1 0\nf ${corners}\r\n`), '.obj').what).toBe('3 vertices and 998 triangles');
    const list = Array.from({ length: 500 }, (_, i) => i % 3).join(' ');
    const ply = Buffer.from(
      `ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 2\nproperty list uchar int ` +
      `vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n500 ${list}\n3 0 1 2\n`,
    );
    expect(decodedSizeOf(ply, '.ply').what).toBe('3 vertices and 499 triangles');
  });

  it('counts a GLB by its drawn primitives and the accessors read', async () => {
    // POSITION (3 × VEC3 float) and indices (3 × uint32): 48 bytes read; 3 vertices, 1 triangle.
    expect(decodedSizeOf(await glbTriangle(), '.glb')).toEqual({ bytes: 48 + 36 + 12, what: '3 vertices and 1 triangle, from 48 bytes of accessors' });
  });

  it('refuses a file past the limit before parsing it, lets one at the limit through, and says why a header is unsound', async () => {
    const bytes = npyBytes([2, 3, 4]);
    expect(checkDecodedSize(bytes, '.npy', 96).bytes).toBe(96);
    expect(() => checkDecodedSize(bytes, '.npy', 95)).toThrow(DecodedSizeError);
    await expect(parseCheckedFile(pngOfZeros(16384, 16384), 'bomb.png', {}, 268435456)).rejects.toThrow(
      /1073741824 bytes \(16384×16384 pixels × 4 channels × 1 byte\), past the 268435456-byte limit/,
    );
    expect(() => decodedSizeOf(Buffer.from('not a png at all, not at all'), '.png')).toThrow(FormatError);
    const glb = Buffer.alloc(28);
    glb.writeUInt32LE(0x46546c67, 0);
    glb.writeUInt32LE(8, 12);
    glb.writeUInt32LE(0x4e4f534a, 16);
    glb.write('{"nodes', 20);
    expect(() => decodedSizeOf(glb, '.glb')).toThrow(/JSON chunk does not parse/);
  });
});
