/**
 * Volumes with time and channels as files: a 4-D or 5-D `.npy` uploaded with `?axes=` (and
 * channels, time step and unit as query fields), published from a file body or an upload,
 * or lying in the specimens directory with its axes in a sidecar, is served one step at a
 * time like a computed one; the same bytes said to be other axes are another upload; an
 * axes string or a field that does not fit the array is a 400 naming it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

/** A uint16 `.npy` of `shape` along `axes` whose every value is t·1000 + c·100 + z·10 + y + x. */
function indexedNpy(shape: number[], axes = 'tczyx'): Buffer {
  const weights: Record<string, number> = { t: 1000, c: 100, z: 10, y: 1, x: 1 };
  const data = new Uint16Array(shape.reduce((a, b) => a * b, 1));
  const at = new Array<number>(shape.length).fill(0);
  for (let i = 0; i < data.length; i++) {
    data[i] = at.reduce((sum, n, axis) => sum + n * weights[axes[axis]!]!, 0);
    for (let axis = shape.length - 1; axis >= 0 && ++at[axis]! === shape[axis]; axis--) at[axis] = 0;
  }
  return npyBytes({ descr: '<u2', shape, data: new Uint8Array(data.buffer) });
}

let app: FastifyInstance;

beforeAll(async () => {
  const specimens = await makeSpecimensDir();
  await mkdir(join(specimens, 'lapse'), { recursive: true });
  await writeFile(join(specimens, 'lapse', 'specimen.json'), JSON.stringify({ display_name: 'lapse', type: 'volume', data_file: 'lapse.npy' }));
  await writeFile(join(specimens, 'lapse', 'lapse.npy'), indexedNpy([3, 4, 5, 6], 'tzyx'));
  await writeFile(join(specimens, 'lapse', 'lapse.json'), JSON.stringify({ axes: 'tzyx', time_step: 5, time_unit: 's', spacing: [2, 1, 1] }));
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: specimens, logLevel: false, poolSize: 2, viewer: false });
});
afterAll(() => app?.close());

function upload(query: string, body: Buffer) {
  return app.inject({
    method: 'POST',
    url: `/api/uploads?filename=stack.npy&${query}`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: body,
  });
}

async function step(id: string, query: string): Promise<DecodedVolume> {
  const res = await app.inject(`/api/specimens/${id}/data?${query}`);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return decodeEnvelope(res.rawPayload) as DecodedVolume;
}

describe('.npy volumes with time and channels', () => {
  it('uploads a 5-D array (tczyx) and publishes it: its steps are served as a computed one', async () => {
    const uploaded = await upload('', indexedNpy([2, 3, 4, 5, 6]));
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const put = await app.inject({
      method: 'PUT',
      url: '/api/specimens/five-d',
      payload: { upload: uploaded.json().upload_id, channels: ['a', 'b', { name: 'c', color: '#FF8800' }], time_step: 0.25, time_unit: 'hour' },
    });
    expect(put.statusCode, put.body).toBe(201);
    const got = await step('five-d', 't=1&c=2');
    expect(got.shape).toEqual([4, 5, 6]);
    expect(got.data[(3 * 5 + 4) * 6 + 5]).toBe(1000 + 200 + 30 + 4 + 5);
    expect(got.preamble).toMatchObject({
      t: 1,
      c: 2,
      sizes: { t: 2, c: 3, z: 4, y: 5, x: 6 },
      time_step: 0.25,
      time_unit: 'hour',
      channels: [{ name: 'a' }, { name: 'b' }, { name: 'c', color: '#ff8800' }],
    });
  });

  it('publishes a file body with its axes, channels and unit as query fields', async () => {
    const url = '/api/specimens/two-channels?filename=cells.npy&axes=czyx&channels=GFP,RFP&unit=um&spacing=2,1,1';
    const put = await app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/octet-stream' }, payload: indexedNpy([2, 4, 5, 6], 'czyx') });
    expect(put.statusCode, put.body).toBe(201);
    const res = await app.inject('/api/specimens/two-channels/data?c=1');
    const got = decodeEnvelope(res.rawPayload) as DecodedVolume;
    expect(got.preamble).toMatchObject({ c: 1, sizes: { c: 2, z: 4, y: 5, x: 6 }, channels: [{ name: 'GFP' }, { name: 'RFP' }] });
    expect(got.spacing).toEqual([2, 1, 1]);
    const info = (await app.inject(`/api/results/${res.headers['x-result-id'] as string}`)).json();
    expect(info).toMatchObject({
      type: 'volume',
      axes: 'czyx',
      unit: 'um',
      sizes: { c: 2, z: 4, y: 5, x: 6 },
      channel_ranges: [
        [0, 30 + 4 + 5],
        [100, 100 + 30 + 4 + 5],
      ],
    });
  });

  it('serves a static .npy whose sidecar says its axes', async () => {
    const got = await step('lapse', 't=2');
    expect(got.data[7]).toBe(2000 + 0 + 1 + 1);
    expect(got.preamble).toMatchObject({ t: 2, sizes: { t: 3, z: 4, y: 5, x: 6 }, time_step: 5, time_unit: 's' });
    expect(got.spacing).toEqual([2, 1, 1]);
  });

  it('gives the same bytes said to be other axes another upload id', async () => {
    const bytes = indexedNpy([2, 4, 5, 6]);
    const asChannels = (await upload('axes=czyx', bytes)).json().upload_id;
    const asTime = (await upload('axes=tzyx', bytes)).json().upload_id;
    expect(asChannels).not.toBe(asTime);
    expect((await upload('axes=czyx', bytes)).json().upload_id).toBe(asChannels);
  });

  const refusals: [string, () => Promise<{ statusCode: number; json: () => { detail: string } }>, RegExp][] = [
    ['a 4-D upload without axes', () => upload('', indexedNpy([2, 4, 5, 6])), /axes 'czyx'.*or 'tzyx'/],
    [
      'an upload whose axes do not fit its dimensions',
      () => upload('axes=tczyx', indexedNpy([2, 4, 5, 6])),
      /axes 'tczyx' names 5 axes but the shape \[2, 4, 5, 6\] has 4/,
    ],
    ['an upload with unknown axes', () => upload('axes=xyz', indexedNpy([4, 5, 6])), /axes must be one of zyx, czyx, tzyx, tczyx/],
    [
      'an upload whose channels do not fit',
      () => upload('axes=czyx&channels=one,two,three', indexedNpy([2, 4, 5, 6])),
      /channels lists 3 channel\(s\) but the volume has 2/,
    ],
    ['a vector field that has no 3 components', () => upload('axes=czyx&vector=true', indexedNpy([2, 4, 5, 6])), /vector: true needs a c axis of 3/],
    [
      'a publish whose channel colour is no colour',
      () =>
        app.inject({
          method: 'PUT',
          url: '/api/specimens/bad-colour?filename=x.npy&axes=czyx&channels=[{"color":"red"},{}]',
          headers: { 'content-type': 'application/octet-stream' },
          payload: indexedNpy([2, 4, 5, 6]),
        }),
      /channels\[0\]\.color must be a colour #rrggbb/,
    ],
    [
      'a publish whose time step is no number',
      () => app.inject({ method: 'PUT', url: '/api/specimens/bad-step', payload: { upload: 'none', time_step: 'soon' } }),
      /'time_step'.*number/,
    ],
  ];
  for (const [what, send, detail] of refusals) {
    it(`refuses ${what} with a 400 naming the field`, async () => {
      const res = await send();
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(detail);
    });
  }
});
