/**
 * A delivery bounded by its output, over HTTP: `segment=all` of a published labels volume with
 * thousands of ids, whose painted surfaces would pass `--max-delivery-bytes`, answers 413 before
 * any surface is made, naming the option, `max_triangles` and `segment`; asked for less (one
 * segment, or few triangles) it is served, and the published volume stays served throughout.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { surfaceBytes } from '../../core/delivery/surface-size.ts';
import type { LabelIndex } from '../../core/labels/label-index.ts';

/** A 16³ uint16 volume of 512 labels, each a 2³ cube. */
function manyLabels(): Buffer {
  const n = 16;
  const data = new Uint16Array(n * n * n);
  for (let z = 0; z < n; z++)
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) data[(z * n + y) * n + x] = 1 + (z >> 1) * 64 + (y >> 1) * 8 + (x >> 1);
  return Buffer.from(encodeNpy({ shape: [n, n, n], dtype: 'uint16', data }));
}

describe('--max-delivery-bytes', () => {
  it('refuses segment=all of many labels before building it, says how to ask for less, and keeps the volume served', async () => {
    const host = await createTestApp({ maxDeliveryBytes: 200_000 });
    const put = await host.inject({
      method: 'PUT',
      url: '/api/specimens/seg?filename=seg.npy&role=labels',
      headers: { 'content-type': 'application/octet-stream' },
      payload: manyLabels(),
    });
    expect(put.statusCode, put.body).toBe(201);
    const one = await host.inject({ url: '/api/specimens/seg/data?segment=17&format=glb' });
    expect(one.statusCode).toBe(200);
    const made = hostContextOf(host).delivery.made;
    const all = await host.inject({ url: '/api/specimens/seg/data?segment=all&format=glb' });
    expect(all.statusCode).toBe(413);
    expect(all.json()).toMatchObject({ code: 'SPC_ERR_DELIVERY_TOO_LARGE' });
    expect(all.json().detail).toMatch(/--max-delivery-bytes/);
    expect(all.json().detail).toMatch(/max_triangles=\d+/);
    expect(all.json().detail).toMatch(/segment=ID/);
    // Nothing was made for it: the label index was there already, and no surface was begun.
    expect(hostContextOf(host).delivery.made).toBe(made);
    const fewer = await host.inject({ url: '/api/specimens/seg/data?segment=all&max_triangles=2000' });
    expect(fewer.statusCode).toBe(200);
    expect(decodeEnvelope(fewer.rawPayload).type).toBe('mesh');
    expect((await host.inject({ url: '/api/specimens/seg/data' })).statusCode).toBe(200);
  });

  it('estimates a compact label by its box and a scattered one by its voxels', () => {
    const index = (count: number, box: number[]): LabelIndex => ({ ids: new Uint32Array([1]), counts: new Float64Array([count]), boxes: new Uint32Array(box) });
    // A 100³ cube: its box's 60,000 faces, not six per voxel.
    expect(surfaceBytes(index(1_000_000, [0, 0, 0, 99, 99, 99]), false)).toBe(60_000 * 48);
    // 32 voxels spread through a 128³ volume: at most their own 192 faces, not the volume's box.
    expect(surfaceBytes(index(32, [0, 0, 0, 127, 127, 127]), false)).toBe(192 * 48);
  });

  it('defaults to a quarter of --cache-max-bytes, and reads --max-delivery-bytes and VITRINE_MAX_DELIVERY_BYTES', () => {
    expect(resolveHostOptions({ cacheMaxBytes: 4000 }).maxDeliveryBytes).toBe(1000);
    expect(resolveHostOptions({ cacheMaxBytes: 4000, maxDeliveryBytes: 3000 }).maxDeliveryBytes).toBe(3000);
    expect(parseServeOptions(['--max-delivery-bytes', '5000'], {}).host_options.maxDeliveryBytes).toBe(5000);
    expect(parseServeOptions([], { VITRINE_MAX_DELIVERY_BYTES: '7000' }).host_options.maxDeliveryBytes).toBe(7000);
    expect(() => parseServeOptions(['--max-delivery-bytes', 'lots'], {})).toThrow(/--max-delivery-bytes/);
  });
});
