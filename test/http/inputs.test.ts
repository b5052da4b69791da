/**
 * Input parameters over HTTP: a function taking another specimen's result (static file,
 * dynamic specimen, nested inputs) or an upload, on /invoke, /data and /start, with its cache
 * key covering each input's own key, and every refusal a 400 naming the input.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';

const input = (type: string, fallback?: unknown) => ({ type: 'object', 'x-vitrine-input': type, ...(fallback === undefined ? {} : { default: fallback }) });
const schemaOf = (title: string, properties: Record<string, unknown>) => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title,
  type: 'object',
  properties,
});

/** Adds one triangle to its input mesh. */
function grow(mesh: { vertices: Float32Array; indices: Uint32Array }) {
  const n = mesh.vertices.length / 3;
  const vertices = new Float32Array(mesh.vertices.length + 9);
  vertices.set(mesh.vertices);
  vertices.set([5, 5, 5, 6, 5, 5, 5, 6, 5], mesh.vertices.length);
  const indices = new Uint32Array(mesh.indices.length + 3);
  indices.set(mesh.indices);
  indices.set([n, n + 1, n + 2], mesh.indices.length);
  return { vertices, indices };
}

async function inputApp(): Promise<FastifyInstance> {
  const app = await createTestApp({ pluginsDir: await inputPluginsDir() });
  const meshInput = (id: string, fallback: unknown) =>
    app.vitrine.registerSpecimen(
      { id, returnType: 'mesh', schema: schemaOf(id, { mesh: input('mesh', fallback) }), parameters: [{ name: 'mesh', kind: 'value' }] },
      grow,
    );
  meshInput('grown', { specimen: 'tri' });
  // Each one's default input is the other: following the defaults never ends.
  meshInput('ping', { specimen: 'pong' });
  meshInput('pong', { specimen: 'ping' });
  return app;
}

async function invoke(app: FastifyInstance, name: string, kwargs: Record<string, unknown>, roomId = room()) {
  return app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: name, kwargs, room_id: roomId } });
}

async function vertices(app: FastifyInstance, name: string, kwargs: Record<string, unknown>, roomId = room()): Promise<number[]> {
  const res = await invoke(app, name, kwargs, roomId);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().vertices;
}

describe('inputs', () => {
  it('passes a static volume as a typed result in shared memory, from the default written in the source', async () => {
    const app = await inputApp();
    // vol.npy is 2×3×4 float32 holding 0..23 (sum 276), spacing [1, 2, 3] from its sidecar.
    expect(await vertices(app, 'measure', {})).toEqual([2, 3, 4, 276, 24, 1, 1, 1, 0]);
    expect(await vertices(app, 'measure', { volume: { specimen: 'vol' }, scale: 2 })).toEqual([2, 3, 4, 552, 24, 1, 1, 1, 0]);
  });

  it('computes a dynamic input with its own params, or takes it from the room cache', async () => {
    const app = await inputApp();
    const r = room();
    const data = await app.inject({ url: `/api/specimens/slow-ramp/data?params=${encodeURIComponent('{"n":2}')}&room_id=${r}` });
    expect(data.statusCode).toBe(200);
    const counts = app.vitrine.cacheAccessCounts();
    const before = { ...counts };
    expect(await vertices(app, 'measure', { volume: { specimen: 'slow-ramp', params: { n: 2 } } }, r)).toEqual([2, 2, 2, 28, 8, -1, 1, 1, 0]);
    // measure missed; its input was the room's entry (a hit), not computed again.
    expect(counts.miss - before.miss).toBe(1);
    expect(counts.hit - before.hit).toBe(1);
  });

  it('keys the cache by each input\'s own key: defaults written or not, the same input is a hit', async () => {
    const app = await inputApp();
    const r = room();
    const counts = app.vitrine.cacheAccessCounts();
    await vertices(app, 'measure', { volume: { specimen: 'slow-ramp' } }, r);
    const before = { ...counts };
    expect(await vertices(app, 'measure', { volume: { specimen: 'slow-ramp', params: { n: 3 } }, scale: 1 }, r)).toEqual([3, 3, 3, 351, 27, -1, 1, 1, 0]);
    expect(counts.hit - before.hit).toBe(1);
    expect(counts.miss - before.miss).toBe(0);
    // Another input is another key.
    expect(await vertices(app, 'measure', { volume: { specimen: 'slow-ramp', params: { n: 2 } } }, r)).toEqual([2, 2, 2, 28, 8, -1, 1, 1, 0]);
    expect(counts.miss - before.miss).toBe(2);
  });

  it('serves /data of a specimen whose function takes an input', async () => {
    const app = await inputApp();
    const res = await app.inject({
      method: 'POST',
      url: '/api/specimens/measured/data',
      payload: { params: { volume: { specimen: 'slow-ramp', params: { n: 2 } } } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-service-envelope-v1');
  });

  it('takes mesh inputs from static files, dynamic specimens and nested inputs up to 4 deep', async () => {
    const app = await inputApp();
    expect((await vertices(app, 'count_mesh', { mesh: { specimen: 'tri' } })).slice(0, 3)).toEqual([3, 1, 1]);
    expect((await vertices(app, 'count_mesh', { mesh: { specimen: 'grown' } })).slice(0, 3)).toEqual([6, 2, 1]);
    let nested: Record<string, unknown> = { specimen: 'tri' };
    for (let i = 0; i < 3; i++) nested = { specimen: 'grown', params: { mesh: nested } };
    expect((await vertices(app, 'count_mesh', { mesh: nested })).slice(0, 3)).toEqual([12, 4, 1]);
  });

  it('runs inside a job, the input\'s progress in the job\'s messages', async () => {
    const app = await inputApp();
    const res = await app.inject({
      method: 'POST',
      url: '/api/specimens/measured/start',
      payload: { params: { volume: { specimen: 'slow-ramp', params: { n: 4 } } }, room_id: room() },
    });
    expect(res.statusCode).toBe(200);
    const job = await waitForJob(app, res.json().job_id);
    expect(job.status).toBe('done');
    const texts = job.messages.map((m) => m.text);
    expect(texts).toContain('volume: ramp step 0');
    expect(texts).toContain('measuring');
    expect(texts.indexOf('volume: ramp step 0')).toBeLessThan(texts.indexOf('measuring'));
  });
});

describe('input refusals', () => {
  const cases: [string, string, Record<string, unknown>, string, RegExp][] = [
    ['a mesh for a volume input', 'measure', { volume: { specimen: 'tri' } }, 'SPC_ERR_INPUT_TYPE', /input 'volume' takes a volume, got a mesh/],
    ['an unknown specimen', 'measure', { volume: { specimen: 'nope' } }, 'SPC_ERR_INPUT_UNKNOWN', /input 'volume' names specimen 'nope'/],
    ['an unknown upload', 'measure', { volume: { upload: 'feedbeef' } }, 'SPC_ERR_INPUT_UNKNOWN', /input 'volume' names upload 'feedbeef'/],
    ['neither specimen nor upload', 'measure', { volume: { file: 'x' } }, 'SPC_ERR_INPUT_INVALID', /input 'volume' must be/],
    [
      'params for a static specimen',
      'measure',
      { volume: { specimen: 'vol', params: { n: 1 } } },
      'SPC_ERR_INPUT_INVALID',
      /input 'volume' names static specimen 'vol'/,
    ],
    [
      "an input's own bad params",
      'measure',
      { volume: { specimen: 'slow-ramp', params: { n: 'big' } } },
      'SPC_ERR_INPUT_INVALID',
      /input 'volume' has params that are refused: parameter 'n'/,
    ],
    [
      'a nested wrong type',
      'count_mesh',
      { mesh: { specimen: 'grown', params: { mesh: { specimen: 'vol' } } } },
      'SPC_ERR_INPUT_TYPE',
      /input 'mesh\.params\.mesh' takes a mesh/,
    ],
  ];
  for (const [what, fn, kwargs, code, detail] of cases) {
    it(`refuses ${what} with a 400 naming the input`, async () => {
      const app = await inputApp();
      const res = await invoke(app, fn, kwargs);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status_code: 400, code });
      expect(res.json().detail).toMatch(detail);
    });
  }

  it('refuses nesting deeper than 4', async () => {
    const app = await inputApp();
    let nested: Record<string, unknown> = { specimen: 'tri' };
    for (let i = 0; i < 4; i++) nested = { specimen: 'grown', params: { mesh: nested } };
    const res = await invoke(app, 'count_mesh', { mesh: nested });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SPC_ERR_INPUT_TOO_DEEP' });
    expect(res.json().detail).toMatch(/input 'mesh\.params\.mesh\.params\.mesh\.params\.mesh\.params\.mesh' nests inputs deeper than 4/);
  });

  it('refuses a cycle of default inputs, on /data, /start and /invoke, and keeps serving', async () => {
    const app = await inputApp();
    for (const res of [
      await app.inject({ url: '/api/specimens/ping/data' }),
      await app.inject({ method: 'POST', url: '/api/specimens/ping/start', payload: {} }),
      await invoke(app, 'ping', {}),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'SPC_ERR_INPUT_CYCLE' });
      expect(res.json().detail).toMatch(/input 'mesh\.params\.mesh' leads back to ping/);
    }
    expect((await vertices(app, 'count_mesh', { mesh: { specimen: 'tri' } })).slice(0, 3)).toEqual([3, 1, 1]);
  });
});
