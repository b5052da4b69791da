/**
 * `/api/results/{result_id}.zarr/` over real HTTP, read with zarrita (a real Zarr reader): the
 * id a /data answer names (X-Result-Id) opens as an OME-Zarr v0.4 group whose `0` array holds
 * the volume exactly, chunk by chunk across the array's edges, with the spacing and origin as
 * the multiscale's transforms (the pyramid's levels: zarr-pyramid.test.ts). Missing chunks, unknown ids, evicted results and results that
 * are not volumes are 404 JSON; the store answers CORS.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';

async function listening(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** The fixture `ramp(n)`: value i at flat index i (times scale), spacing [0.5, 0.5, 2], origin [1, 2, 3]. */
function expectedRamp(n: number): number[] {
  return Array.from({ length: n * n * n }, (_, i) => i);
}

async function volumeId(url: string, n: number, roomId = room()): Promise<string> {
  const res = await fetch(`${url}/api/specimens/dyn-ramp/data?params=${encodeURIComponent(JSON.stringify({ n }))}&room_id=${roomId}`);
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  const id = res.headers.get('x-result-id');
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  return id!;
}

describe('OME-Zarr store of a volume result', () => {
  it('opens in zarrita as an OME-Zarr v0.4 image whose array is the volume', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'dyn-ramp', 'ramp');
    const url = await listening(app);
    // 70 per axis: two chunks of 64 along each, the second cut by the array's edge.
    const id = await volumeId(url, 70);
    const store = new zarr.FetchStore(`${url}/api/results/${id}.zarr`);
    const group = await zarr.open.v2(zarr.root(store), { kind: 'group' });
    const attrs = group.attrs as { multiscales: Record<string, unknown>[]; omero: { channels: { window: Record<string, number> }[] } };
    expect(attrs.multiscales).toHaveLength(1);
    expect(attrs.multiscales[0]).toMatchObject({
      version: '0.4',
      name: id,
      axes: [
        { name: 'z', type: 'space' },
        { name: 'y', type: 'space' },
        { name: 'x', type: 'space' },
      ],
      // 70 > 64: one halved level (35 per axis) after the volume itself.
      datasets: [
        { path: '0', coordinateTransformations: [{ type: 'scale', scale: [0.5, 0.5, 2] }, { type: 'translation', translation: [1, 2, 3] }] },
        { path: '1', coordinateTransformations: [{ type: 'scale', scale: [1, 1, 4] }, { type: 'translation', translation: [1, 2, 3] }] },
      ],
    });
    expect(attrs.omero.channels[0]!.window).toEqual({ min: 0, max: 70 ** 3 - 1, start: 0, end: 70 ** 3 - 1 });
    const array = await zarr.open.v2(zarr.root(store).resolve('0'), { kind: 'array' });
    expect(array.shape).toEqual([70, 70, 70]);
    expect(array.chunks).toEqual([64, 64, 64]);
    expect(array.dtype).toBe('float32');
    const whole = await zarr.get(array);
    expect(whole.shape).toEqual([70, 70, 70]);
    const data = whole.data as Float32Array;
    const want = expectedRamp(70);
    expect(data.length).toBe(want.length);
    expect(want.findIndex((v, i) => data[i] !== v), 'first sample that differs').toBe(-1);
    // A block straddling chunk edges reads back too.
    const block = await zarr.get(array, [zarr.slice(60, 70), 66, zarr.slice(62, 67)]);
    expect(block.shape).toEqual([10, 5]);
    const inBlock: number[] = [];
    for (let z = 60; z < 70; z++) for (let x = 62; x < 67; x++) inBlock.push(z * 4900 + 66 * 70 + x);
    expect(Array.from(block.data as Float32Array)).toEqual(inBlock);

    const zarray = (await (await fetch(`${url}/api/results/${id}.zarr/0/.zarray`)).json()) as Record<string, unknown>;
    expect(zarray).toMatchObject({ zarr_format: 2, dtype: '<f4', compressor: { id: 'gzip' }, order: 'C', dimension_separator: '/' });
    expect(await (await fetch(`${url}/api/results/${id}.zarr/.zgroup`)).json()).toEqual({ zarr_format: 2 });
  });

  it('answers 404 JSON for a chunk outside the array, an unknown key, an unknown id and a result that is no volume', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'dyn-ramp', 'ramp');
    addDynamicSpecimen(app, 'dyn-cloud', 'cloud');
    const url = await listening(app);
    const id = await volumeId(url, 5);
    const chunk = await fetch(`${url}/api/results/${id}.zarr/0/0/0/0`, { headers: { origin: 'https://viewer.example' } });
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get('access-control-allow-origin')).toBe('*');
    const missing = [
      `${id}.zarr/0/1.0.0`,
      `${id}.zarr/0/1/0/0`,
      `${id}.zarr/0/0.0`,
      `${id}.zarr/0/0/0`,
      `${id}.zarr/0/a.b.c`,
      `${id}.zarr/0/0/0.0`,
      `${id}.zarr/1/.zarray`,
      `${id}.zarr/1/0/0/0`,
    ];
    for (const key of missing) {
      const res = await fetch(`${url}/api/results/${key}`);
      expect(res.status, key).toBe(404);
      expect(await res.json()).toMatchObject({ status_code: 404, code: 'SPC_ERR_ZARR_KEY_NOT_FOUND' });
    }
    for (const unknown of [`${'0'.repeat(64)}.zarr/.zattrs`, 'not-an-id.zarr/.zattrs', `${id}/.zattrs`]) {
      const res = await fetch(`${url}/api/results/${unknown}`);
      expect(res.status, unknown).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'SPC_ERR_RESULT_ID_NOT_FOUND' });
    }
    const cloud = await fetch(`${url}/api/specimens/dyn-cloud/data?room_id=${room()}`);
    const cloudId = cloud.headers.get('x-result-id');
    await cloud.arrayBuffer();
    const notVolume = await fetch(`${url}/api/results/${cloudId}.zarr/.zattrs`);
    expect(notVolume.status).toBe(404);
    expect(await notVolume.json()).toMatchObject({ code: 'SPC_ERR_RESULT_NOT_VOLUME', detail: expect.stringContaining('point cloud') });
  });

  it('answers 404 once the result is no longer held (evicted from the byte budget)', async () => {
    // Room for one 5³ float32 ramp (500 bytes) but not two.
    const app = await createTestApp({ cacheMaxBytes: 800 });
    addDynamicSpecimen(app, 'dyn-ramp', 'ramp');
    const url = await listening(app);
    const first = await volumeId(url, 5);
    expect((await fetch(`${url}/api/results/${first}.zarr/.zattrs`)).status).toBe(200);
    await volumeId(url, 5, room()); // the same content in another room: the same id, still held
    const other = await fetch(`${url}/api/specimens/dyn-ramp/data?params=${encodeURIComponent('{"n":5,"scale":2}')}&room_id=${room()}`);
    await other.arrayBuffer();
    const gone = await fetch(`${url}/api/results/${first}.zarr/.zattrs`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({ code: 'SPC_ERR_RESULT_ID_NOT_FOUND' });
    expect((await fetch(`${url}/api/results/${other.headers.get('x-result-id')}.zarr/.zattrs`)).status).toBe(200);
  });
});
