/**
 * Per-vertex mesh colours: checked like every result array, sent in the JSON typed result with
 * their dtype and in the envelope as a last block that only meshes with colours carry (a mesh
 * without them is byte for byte what it was, and readers of the first three blocks find them
 * at the same offsets).
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedMesh } from '../../core/envelope/decode-envelope.ts';
import { encodeMeshEnvelope } from '../../core/envelope/encode-envelope.ts';
import { decodeTypedResult } from '../../core/client/decode-typed-result.ts';
import { normalizeResult } from '../../core/results/normalize-result.ts';
import { toJsonResult } from '../../core/results/to-json-result.ts';

const vertices = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
const indices = new Uint32Array([0, 1, 2]);
const normals = new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1]);

function bytes(parts: Buffer[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

describe('mesh colours', () => {
  it('leave a mesh without colours unchanged and add a trailing block when present', () => {
    const plain = bytes(encodeMeshEnvelope({ vertices, indices, normals }).parts);
    const colors = new Uint8Array([255, 0, 0, 0, 255, 0, 0, 0, 255]);
    const coloured = bytes(encodeMeshEnvelope({ vertices, indices, normals, colors }).parts);
    const plainMesh = decodeEnvelope(plain) as DecodedMesh;
    expect(plainMesh.preamble).not.toHaveProperty('color_count');
    expect(plainMesh).not.toHaveProperty('colors');
    const mesh = decodeEnvelope(coloured) as DecodedMesh;
    expect(mesh.preamble).toMatchObject({ color_count: 3, color_dtype: 'uint8' });
    expect(Array.from(mesh.colors!)).toEqual(Array.from(colors));
    // The first three blocks sit where they were: the colour block is appended after them.
    const preambleEnd = (array: Uint8Array) => 4 + new DataView(array.buffer, array.byteOffset).getUint32(0, true);
    expect(coloured.subarray(preambleEnd(coloured), preambleEnd(coloured) + 36 + 12 + 36)).toEqual(plain.subarray(preambleEnd(plain)));
    expect(coloured.byteLength - preambleEnd(coloured)).toBe(plain.byteLength - preambleEnd(plain) + 9);
    const floats = decodeEnvelope(bytes(encodeMeshEnvelope({ vertices, indices, colors: new Float32Array(9).fill(0.5) }).parts)) as DecodedMesh;
    expect(floats.colors).toBeInstanceOf(Float32Array);
    expect(floats.preamble['color_dtype']).toBe('float32');
  });

  it('are checked, and travel in the JSON typed result with their dtype', () => {
    expect(() => normalizeResult({ vertices, indices, colors: new Uint8Array(6) }, 'mesh')).toThrow(/colors length 6 is not 3 per vertex for 3 vertices/);
    expect(() => normalizeResult({ vertices, indices, colors: new Int16Array(9) }, 'mesh')).toThrow(/colors must be a Uint8Array or Float32Array/);
    // A plain list is taken as bytes, as lists are for every other array of a result.
    expect((normalizeResult({ vertices, indices, colors: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, 'mesh') as { colors: unknown }).colors).toBeInstanceOf(Uint8Array);
    const stored = normalizeResult({ vertices, indices, colors: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]) }, 'mesh');
    const json = JSON.parse(toJsonResult(stored));
    expect(json).toMatchObject({ colors: [1, 2, 3, 4, 5, 6, 7, 8, 9], colors_dtype: 'uint8' });
    const decoded = decodeTypedResult(json);
    expect(decoded.type === 'mesh' && decoded.colors).toEqual(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(JSON.parse(toJsonResult(normalizeResult({ vertices, indices }, 'mesh')))).not.toHaveProperty('colors');
  });
});
