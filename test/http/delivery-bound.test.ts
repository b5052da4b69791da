/**
 * A delivery bounded by its output, over HTTP: `segment=all` of a published labels volume with
 * thousands of ids, whose painted surfaces would pass `--max-delivery-bytes`, answers 413 before
 * any surface is made, naming the option, `max_triangles` and `segment`; asked for less (one
 * segment, or few triangles) it is served, and the published volume stays served throughout.
 * The bound is held against the bytes of the format asked (STL twice the envelope, OBJ more),
 * for surfaces before they are made and for any mesh before a byte is sent.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { surfaceFaces } from '../../core/delivery/surface-size.ts';
import type { LabelIndex } from '../../core/labels/label-index.ts';

const OCTETS = { 'content-type': 'application/octet-stream' };

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
    const put = await host.inject({ method: 'PUT', url: '/api/specimens/seg?filename=seg.npy&role=labels', headers: OCTETS, payload: manyLabels() });
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

  // 512 labels painted: about 0.65 MB as the envelope or PLY, 1.23 MB as STL and 1.6 MB as OBJ.
  it('holds the bound against the bytes of the format asked, refusing STL and OBJ before building them', async () => {
    const host = await createTestApp({ maxDeliveryBytes: 1_000_000 });
    const put = await host.inject({ method: 'PUT', url: '/api/specimens/seg?filename=seg.npy&role=labels', headers: OCTETS, payload: manyLabels() });
    expect(put.statusCode, put.body).toBe(201);
    expect((await host.inject({ url: '/api/specimens/seg/data?segment=1' })).statusCode).toBe(200);
    const made = hostContextOf(host).delivery.made;
    for (const format of ['stl', 'obj']) {
      const refused = await host.inject({ url: `/api/specimens/seg/data?segment=all&format=${format}` });
      expect(refused.statusCode, format).toBe(413);
      expect(refused.json().detail).toContain(`segment=all of this labels volume (512 labels) as ${format.toUpperCase()}`);
      expect(refused.json().detail).toMatch(/max_triangles=\d+/);
    }
    // Nothing was begun for them: no surface, no variant.
    expect(hostContextOf(host).delivery.made).toBe(made);
    for (const format of ['envelope', 'ply', 'glb']) {
      const served = await host.inject({ url: `/api/specimens/seg/data?segment=all&format=${format}` });
      expect(served.statusCode, format).toBe(200);
      expect(served.rawPayload.length).toBeLessThanOrEqual(1_000_000);
    }
    // Asked for fewer triangles, STL fits.
    const fewer = await host.inject({ url: '/api/specimens/seg/data?segment=all&format=stl&max_triangles=15000' });
    expect(fewer.statusCode).toBe(200);
    expect(fewer.rawPayload.length).toBeLessThanOrEqual(1_000_000);
  });

  it('holds it for any mesh in a format of its own: from its counts, and an OBJ stopped as it is written', async () => {
    const host = await createTestApp({ maxDeliveryBytes: 1_000_000 });
    // 10,000 triangles of coordinates with nine digits each: 0.5 MB as STL, 1.3 MB as OBJ, which
    // its counts put at about 0.8 MB (short numbers): the writer finds out, and stops at the bound.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const triangles = Array.from({ length: 10_000 }, () => Array.from({ length: 9 }, random));
    const put = await host.inject({ method: 'PUT', url: '/api/specimens/rough?filename=rough.stl', headers: OCTETS, payload: binaryStl(triangles) });
    expect(put.statusCode, put.body).toBe(201);
    expect((await host.inject({ url: '/api/specimens/rough/data?format=stl' })).statusCode).toBe(200);
    const obj = await host.inject({ url: '/api/specimens/rough/data?format=obj' });
    expect(obj.statusCode).toBe(413);
    expect(obj.json()).toMatchObject({ code: 'SPC_ERR_DELIVERY_TOO_LARGE', detail: expect.stringContaining('this mesh as OBJ would take about more than') });
    const tight = await createTestApp({ maxDeliveryBytes: 400_000 });
    await tight.inject({ method: 'PUT', url: '/api/specimens/rough?filename=rough.stl', headers: OCTETS, payload: binaryStl(triangles) });
    const stl = await tight.inject({ url: '/api/specimens/rough/data?format=stl' });
    expect(stl.statusCode).toBe(413);
    expect(stl.json().detail).toContain('this mesh as STL would take about 500084 bytes');
  });

  it('estimates a compact label by its box and a scattered one by its voxels', () => {
    const index = (count: number, box: number[]): LabelIndex => ({
      ids: new Uint32Array([1]),
      counts: new Float64Array([count]),
      boxes: new Uint32Array(box),
      faces: new Float64Array([0]),
    });
    // A 100³ cube: its box's 60,000 faces, not six per voxel.
    expect(surfaceFaces(index(1_000_000, [0, 0, 0, 99, 99, 99]))).toBe(60_000);
    // 32 voxels spread through a 128³ volume: at most their own 192 faces, not the volume's box.
    expect(surfaceFaces(index(32, [0, 0, 0, 127, 127, 127]))).toBe(192);
  });

  it('defaults to a quarter of --cache-max-bytes, and reads --max-delivery-bytes and VITRINE_MAX_DELIVERY_BYTES', () => {
    expect(resolveHostOptions({ cacheMaxBytes: 4000 }).maxDeliveryBytes).toBe(1000);
    expect(resolveHostOptions({ cacheMaxBytes: 4000, maxDeliveryBytes: 3000 }).maxDeliveryBytes).toBe(3000);
    expect(parseServeOptions(['--max-delivery-bytes', '5000'], {}).host_options.maxDeliveryBytes).toBe(5000);
    expect(parseServeOptions([], { VITRINE_MAX_DELIVERY_BYTES: '7000' }).host_options.maxDeliveryBytes).toBe(7000);
    expect(() => parseServeOptions(['--max-delivery-bytes', 'lots'], {})).toThrow(/--max-delivery-bytes/);
  });
});
