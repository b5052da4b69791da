/**
 * Volumes with time and channels, one step at a time: `/data` answers the 3-D step `t`, `c`
 * (defaults 0) and says which one it is (preamble and headers); a vector field also answers
 * its magnitude and its direction as RGB (checked against the components' mapping computed
 * here from the whole array `/invoke` answers); every delivery option applies to the step (a
 * Godot client's profile, npy, gzip); the same step with the same delivery is the same blob
 * however it was asked for; steps, channels and vector modes a result lacks are 400s naming
 * the option.
 */
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { parseNpy } from '../../core/formats/npy/parse-npy.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
/** A small vector field: 6 × 5 × 4 voxels, 3 components, 3 steps. */
const FIELD = { width: 6, height: 5, depth: 4, steps: 3 };

let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: null, logLevel: false, poolSize: 2, viewer: false });
  addDynamicSpecimen(app, 'steps', 'indexed_steps');
  addDynamicSpecimen(app, 'field', 'vector_field');
  addDynamicSpecimen(app, 'sized', 'sized_volume');
});
afterAll(() => app?.close());

type Query = Record<string, string | number>;

async function get(id: string, params: object, query: Query = {}, headers: Record<string, string> = {}) {
  const search = new URLSearchParams({ params: JSON.stringify(params), ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  return app.inject({ url: `/api/specimens/${id}/data?${search}`, headers });
}

async function step(
  id: string,
  params: object,
  query: Query = {},
  headers: Record<string, string> = {},
): Promise<DecodedVolume & { headers: Record<string, unknown> }> {
  const res = await get(id, params, query, headers);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return { ...(decodeEnvelope(res.rawPayload) as DecodedVolume), headers: res.headers };
}

/** The value `indexed_steps` writes at (t, c, z, y, x). */
const indexed = (t: number, c: number, z: number, y: number, x: number) => t * 1000 + c * 100 + z * 10 + y + x;

/** The whole array /invoke answers, as a Float32Array, and its shape. */
async function wholeField(): Promise<{ data: Float32Array; shape: number[]; body: Record<string, unknown> }> {
  const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'vector_field', kwargs: FIELD } });
  expect(res.statusCode).toBe(200);
  const body = res.json() as Record<string, unknown>;
  const bytes = Buffer.from(body.data as string, 'base64');
  return { data: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4), shape: body.shape as number[], body };
}

describe('one step at a time', () => {
  it('answers step 0 of channel 0 by default, saying which step it is and the size of every axis', async () => {
    const got = await step('steps', {}, {});
    expect([got.dtype, got.shape]).toEqual(['uint16', [4, 5, 6]]);
    expect(got.data[0]).toBe(0);
    expect(got.data[got.data.length - 1]).toBe(indexed(0, 0, 3, 4, 5));
    expect(got.preamble).toMatchObject({
      t: 0,
      c: 0,
      sizes: { t: 3, c: 2, z: 4, y: 5, x: 6 },
      time_step: 2,
      time_unit: 'minute',
      channels: [{ name: 'ch0' }, { name: 'ch1' }],
    });
    expect(got.spacing).toEqual([1, 0.5, 0.5]);
    expect(got.headers['x-volume-t']).toBe('0');
    expect(got.headers['x-volume-c']).toBe('0');
    expect(got.headers['x-volume-sizes']).toBe('t=3,c=2,z=4,y=5,x=6');
    // The first step is the result's default form: its blob is the result id.
    expect(got.headers['x-blob-id']).toBe(got.headers['x-result-id']);
    // Every step of a channel maps alike: its range is the channel's over every step.
    expect(got.value_range).toEqual([indexed(0, 0, 0, 0, 0), indexed(2, 0, 3, 4, 5)]);
  });

  it('answers step t of channel c, the same blob however it is asked for', async () => {
    const got = await step('steps', {}, { t: 2, c: 1 });
    for (const [z, y, x] of [[0, 0, 0], [3, 4, 5], [1, 2, 3]] as const) expect(got.data[(z * 5 + y) * 6 + x]).toBe(indexed(2, 1, z, y, x));
    expect(got.preamble).toMatchObject({ t: 2, c: 1 });
    const posted = await app.inject({ method: 'POST', url: '/api/specimens/steps/data', payload: { params: {}, delivery: { c: 1, t: 2 } } });
    expect(posted.headers['x-blob-id']).toBe(got.headers['x-blob-id']);
    const explicitFirst = await get('steps', {}, { t: 0, c: 0 });
    expect(explicitFirst.headers['x-blob-id']).toBe(explicitFirst.headers['x-result-id']);
    const blob = await app.inject({ url: `/api/blobs/${got.headers['x-blob-id'] as string}` });
    expect(blob.statusCode).toBe(200);
    expect(Buffer.compare(blob.rawPayload, (await get('steps', {}, { t: 2, c: 1 })).rawPayload)).toBe(0);
    expect(blob.headers['x-volume-t']).toBe('2');
  });

  it('takes steps of results with only channels or only time', async () => {
    const channels = await step('steps', { axes: 'czyx' }, { c: 1 });
    expect(channels.preamble).toMatchObject({ c: 1, sizes: { c: 2, z: 4, y: 5, x: 6 } });
    expect(channels.headers['x-volume-t']).toBeUndefined();
    expect(channels.data[7]).toBe(indexed(0, 1, 0, 1, 1));
    const time = await step('steps', { axes: 'tzyx' }, { t: 1 });
    expect(time.preamble).toMatchObject({ t: 1, sizes: { t: 3, z: 4, y: 5, x: 6 } });
    expect(time.data[7]).toBe(indexed(1, 0, 0, 1, 1));
  });

  it('applies every delivery option to the step: dtype and window, npy, gzip', async () => {
    const mapped = await step('steps', {}, { t: 1, c: 1, dtype: 'uint8', window: '1100,1150' });
    expect(mapped.dtype).toBe('uint8');
    expect(mapped.data[0]).toBe(0);
    expect(mapped.data[(1 * 5 + 2) * 6 + 3]).toBe(Math.round(((indexed(1, 1, 1, 2, 3) - 1100) * 255) / 50));
    const npy = await get('steps', {}, { t: 2, c: 1, format: 'npy' });
    expect(npy.headers['content-disposition']).toContain('steps.npy');
    expect(npy.headers['x-volume-t']).toBe('2');
    const parsed = parseNpy(npy.rawPayload);
    expect(parsed.type === 'volume' && parsed.shape).toEqual([4, 5, 6]);
    expect(parsed.type === 'volume' && parsed.data[0]).toBe(indexed(2, 1, 0, 0, 0));
    const plain = await get('steps', { width: 200 }, { t: 1 });
    const zipped = await get('steps', { width: 200 }, { t: 1 }, { 'accept-encoding': 'gzip' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(Buffer.compare(gunzipSync(zipped.rawPayload), plain.rawPayload)).toBe(0);
  });

  it('sends /invoke the whole array with its axes', async () => {
    const { shape, body } = await wholeField();
    expect(shape).toEqual([3, 3, 4, 5, 6]);
    expect(body).toMatchObject({ axes: 'tczyx', vector: true, time_step: 0.1, time_unit: 'second', spacing: [2, 1, 1] });
    expect((body.channels as unknown[]).length).toBe(3);
  });
});

describe('vector fields', () => {
  it('answers c=rgb as uint8 with a last axis of 3: each component mapped from [-m, m] onto 0..255', async () => {
    const { data } = await wholeField();
    const voxels = FIELD.width * FIELD.height * FIELD.depth;
    let m = 0;
    for (let t = 0; t < FIELD.steps; t++) {
      for (let i = 0; i < voxels; i++) {
        const [x, y, z] = [0, 1, 2].map((k) => data[(t * 3 + k) * voxels + i]!);
        m = Math.max(m, Math.hypot(x!, y!, z!));
      }
    }
    expect(m).toBeGreaterThan(0);
    const t = 2;
    const got = await step('field', FIELD, { t, c: 'rgb' });
    expect([got.dtype, got.shape]).toEqual(['uint8', [4, 5, 6, 3]]);
    expect(got.value_range![0]).toBeCloseTo(-m, 5);
    expect(got.value_range![1]).toBeCloseTo(m, 5);
    expect(got.preamble).toMatchObject({ t: 2, c: 'rgb', vector: true });
    let exact = 0;
    for (let i = 0; i < voxels; i++) {
      for (let k = 0; k < 3; k++) {
        const scaled = ((data[(t * 3 + k) * voxels + i]! + m) / (2 * m)) * 255;
        const delivered = got.data[i * 3 + k]!;
        // Rounding may go either way only where the scaled value is a half.
        if (delivered === Math.round(scaled)) exact++;
        else expect(Math.abs(scaled - Math.floor(scaled) - 0.5), `voxel ${i} component ${k}`).toBeLessThan(1e-6);
      }
    }
    expect(exact).toBeGreaterThan(voxels * 3 - 3);
  });

  it('answers c=magnitude as float32 over [0, m], and one component as its channel', async () => {
    const { data } = await wholeField();
    const voxels = FIELD.width * FIELD.height * FIELD.depth;
    const got = await step('field', FIELD, { t: 1, c: 'magnitude' });
    expect([got.dtype, got.shape]).toEqual(['float32', [4, 5, 6]]);
    for (let i = 0; i < voxels; i += 7) {
      const want = Math.hypot(...[0, 1, 2].map((k) => data[(3 + k) * voxels + i]!));
      expect(got.data[i]).toBeCloseTo(want, 5);
    }
    expect(got.value_range![0]).toBe(0);
    const vy = await step('field', FIELD, { t: 1, c: 1 });
    expect(Array.from(vy.data.slice(0, 5))).toEqual(Array.from(data.slice(4 * voxels, 4 * voxels + 5)));
  });

  it('gives a Godot client one step as uint8 within its profile, direction colours included', async () => {
    const big = { width: 300, height: 20, depth: 4, steps: 2 };
    const got = await step('field', big, { t: 1 }, GODOT);
    expect(got.dtype).toBe('uint8');
    expect(Math.max(...got.shape)).toBeLessThanOrEqual(256);
    expect(got.shape).toEqual([4, 20, 150]);
    expect(got.preamble).toMatchObject({ t: 1, c: 0 });
    const rgb = await step('field', big, { t: 1, c: 'rgb' }, GODOT);
    expect([rgb.dtype, rgb.shape]).toEqual(['uint8', [4, 20, 150, 3]]);
    const plain = await step('field', big, { t: 1 });
    expect([plain.dtype, plain.shape]).toEqual(['float32', [4, 20, 300]]);
  });
});

describe('steps, channels and modes a result lacks', () => {
  const cases: [string, string, object, Query, RegExp][] = [
    ['a step past the last', 'steps', {}, { t: 3 }, /'t'.*3 time steps/],
    ['a channel past the last', 'steps', {}, { c: 2 }, /'c'.*2 channels/],
    ['a step that is no integer', 'steps', {}, { t: '1.5' }, /'t'.*integer/],
    ['a channel that is no index', 'steps', {}, { c: 'red' }, /'c'.*magnitude or rgb/],
    ['a vector mode on a field that is no vector', 'steps', {}, { c: 'rgb' }, /'c'.*vector field/],
    ['a step of a result with no time axis', 'steps', { axes: 'czyx' }, { t: 1 }, /'t'.*no time axis/],
    ['a step of a 3-D volume', 'sized', { depth: 4, height: 4, width: 4 }, { t: 1 }, /'t'.*no time axis/],
    ['direction colours retyped', 'field', FIELD, { c: 'rgb', dtype: 'float32' }, /'dtype'.*uint8/],
  ];
  for (const [what, id, params, query, detail] of cases) {
    it(`refuses ${what} with a 400 naming it`, async () => {
      const res = await get(id, params, { room_id: room(), ...query });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(detail);
    });
  }

  it('reads a blob id of a step the result lacks as no blob', async () => {
    const got = await get('steps', {}, { t: 1 });
    const id = got.headers['x-blob-id'] as string;
    const [result, tail] = id.split('.');
    const forged = `${result}.${Buffer.from(Buffer.from(tail!, 'base64url').toString().replace('t=1', 't=9')).toString('base64url')}`;
    expect((await app.inject({ url: `/api/blobs/${forged}` })).statusCode).toBe(404);
  });
});
