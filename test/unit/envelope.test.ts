import { describe, expect, it } from 'vitest';
import { decodeEnvelope, EnvelopeDecodeError } from '../../core/envelope/decode-envelope.ts';
import { encodeMeshEnvelope, encodeVolumeEnvelope } from '../../core/envelope/encode-envelope.ts';
import { encodePreamble } from '../../core/envelope/preamble.ts';

const join = (parts: Buffer[]) => Buffer.concat(parts);

describe('envelope v1', () => {
  it('round-trips a mesh, omitting the normals block when there are none', () => {
    const vertices = new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const indices = new Uint32Array([0, 1, 2]);
    const env = encodeMeshEnvelope({ vertices, indices });
    const bytes = join(env.parts);
    expect(bytes.length).toBe(env.byteLength);
    const decoded = decodeEnvelope(bytes);
    if (decoded.type !== 'mesh') throw new Error('mesh expected');
    expect(Array.from(decoded.vertices)).toEqual(Array.from(vertices));
    expect(Array.from(decoded.indices)).toEqual([0, 1, 2]);
    expect(decoded.normals).toBeNull();
    expect(decoded.preamble).toMatchObject({
      vertex_count: 3,
      index_count: 3,
      normal_count: 0,
      vertex_dtype: 'float32',
      index_dtype: 'uint32',
      normal_dtype: 'float32',
    });
  });

  it('writes views onto the arrays, not copies', () => {
    const vertices = new Float32Array([1, 2, 3]);
    const env = encodeMeshEnvelope({ vertices, indices: new Uint32Array(0) });
    expect(env.parts[1]!.buffer).toBe(vertices.buffer);
  });

  it('round-trips a volume with spacing, origin and value range', () => {
    const data = new Int16Array([-5, 0, 7, 3]);
    const decoded = decodeEnvelope(
      join(encodeVolumeEnvelope({ shape: [1, 2, 2], dtype: 'int16', data, spacing: [1, 1, 2], origin: [0, 0, 0] }, [-5, 7]).parts),
    );
    if (decoded.type !== 'volume') throw new Error('volume expected');
    expect(decoded.shape).toEqual([1, 2, 2]);
    expect(Array.from(decoded.data)).toEqual([-5, 0, 7, 3]);
    expect(decoded.spacing).toEqual([1, 1, 2]);
    expect(decoded.value_range).toEqual([-5, 7]);
  });

  it('rejects truncated buffers, unknown types and wrong mesh dtypes', () => {
    const full = join(encodeMeshEnvelope({ vertices: new Float32Array(9), indices: new Uint32Array(3) }).parts);
    expect(() => decodeEnvelope(full.subarray(0, full.length - 1))).toThrow(EnvelopeDecodeError);
    expect(() => decodeEnvelope(full.subarray(0, 2))).toThrow(/truncated/);
    expect(() => decodeEnvelope(encodePreamble({ type: 'hologram' }))).toThrow(/unknown envelope type/);
    expect(() => decodeEnvelope(encodePreamble({ type: 'mesh', vertex_count: 0, index_count: 0, vertex_dtype: 'float64' }))).toThrow(/vertex_dtype/);
    expect(() => decodeEnvelope(encodePreamble({ type: 'mesh', vertex_count: 0, index_count: 0, index_dtype: 'uint16' }))).toThrow(/index_dtype/);
  });

  it('copies a block only when its offset is unaligned', () => {
    const parts = encodeMeshEnvelope({ vertices: new Float32Array([1, 2, 3]), indices: new Uint32Array(0) }).parts;
    const shifted = new Uint8Array(join(parts).length + 1);
    shifted.set(join(parts), 1);
    const decoded = decodeEnvelope(shifted.subarray(1));
    if (decoded.type !== 'mesh') throw new Error('mesh expected');
    expect(Array.from(decoded.vertices)).toEqual([1, 2, 3]);
  });
});
