/**
 * decodeTypedResult on hand-written typed result JSON, including the cases the
 * host's JSON encoder cannot produce on purpose: bad types, wrong byte counts.
 */
import { describe, expect, it } from 'vitest';
import { decodeTypedResult, TypedResultError } from '../../core/client/index.ts';

const b64 = (array: ArrayBufferView): string =>
  Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');

describe('decodeTypedResult', () => {
  it('turns mesh flat lists into typed arrays', () => {
    const mesh = decodeTypedResult({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] });
    expect(mesh).toEqual({
      type: 'mesh',
      vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]),
      indices: new Uint32Array([0, 1, 2]),
      normals: null,
    });
  });

  it('decodes base64 volume data of any dtype into an aligned view', () => {
    const samples = new Float64Array([1.5, -2, 3.25, 1e10]);
    const volume = decodeTypedResult({ type: 'volume', shape: [1, 2, 2], dtype: 'float64', data: b64(samples), spacing: [1, 2, 3] });
    if (volume.type !== 'volume') throw new Error('not a volume');
    expect(volume.data).toBeInstanceOf(Float64Array);
    expect(Array.from(volume.data)).toEqual([1.5, -2, 3.25, 1e10]);
    expect(volume.spacing).toEqual([1, 2, 3]);
    expect(volume.origin).toBeNull();
  });

  it('decodes images and point clouds', () => {
    const pixels = new Uint16Array([0, 65535, 1000, 2000]);
    const image = decodeTypedResult({ type: 'image', width: 2, height: 2, channels: 1, dtype: 'uint16', data: b64(pixels) });
    if (image.type !== 'image') throw new Error('not an image');
    expect(Array.from(image.data)).toEqual([0, 65535, 1000, 2000]);
    const cloud = decodeTypedResult({ type: 'point_cloud', points: [0, 1, 2], colors: [0.5, 0.25, 1], scalars: [7] });
    if (cloud.type !== 'point_cloud') throw new Error('not a point cloud');
    expect(cloud.colors).toBeInstanceOf(Float32Array);
    const bytes = decodeTypedResult({ type: 'point_cloud', points: [0, 1, 2], colors: [255, 128, 0] });
    if (bytes.type !== 'point_cloud') throw new Error('not a point cloud');
    expect(bytes.colors).toBeInstanceOf(Uint8Array);
    expect(bytes.scalars).toBeNull();
  });

  it('refuses what is not a typed result', () => {
    expect(() => decodeTypedResult([1, 2])).toThrow(TypedResultError);
    expect(() => decodeTypedResult({ type: 'hologram' })).toThrow(/unknown typed result type/);
    expect(() => decodeTypedResult({ type: 'mesh', vertices: 'abc', indices: [] })).toThrow(/vertices/);
    expect(() =>
      decodeTypedResult({ type: 'volume', shape: [2, 2], dtype: 'float32', data: b64(new Float32Array(3)) }),
    ).toThrow(/12 bytes, expected 4 × float32/);
    expect(() => decodeTypedResult({ type: 'image', width: 1, height: 1, channels: 5, data: '' })).toThrow(/channels/);
  });
});
