import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { makeSpecimensDir, OBJ_TEXT } from '../helpers/specimens-dir.ts';

describe('catalog', () => {
  it('lists disk and code specimens with is_dynamic at /api/specimens and /api/specimens/', async () => {
    const app = await createTestApp();
    app.vitrine.registerSpecimen({ id: 'coded', display_name: 'Coded', tags: ['x'], thumbnail: 'data:image/png;base64,iVBORw0KGgo=' }, (size = 1) => ({
      vertices: new Float32Array([0, 0, 0, size, 0, 0, 0, size, 0]),
      indices: new Uint32Array([0, 1, 2]),
    }));
    for (const url of ['/api/specimens', '/api/specimens/']) {
      const res = await app.inject({ url });
      expect(res.statusCode).toBe(200);
      const list = res.json() as Record<string, unknown>[];
      const byId = Object.fromEntries(list.map((e) => [e.id, e]));
      expect(byId.tri).toMatchObject({
        display_name: 'Triangle',
        type: 'mesh',
        is_dynamic: false,
        function_name: null,
        tags: ['static'],
        thumbnail_url: '/api/specimens/tri/thumbnail',
      });
      expect(byId['dyn-square']).toMatchObject({ is_dynamic: true, function_name: 'square' });
      expect(byId.coded).toMatchObject({ is_dynamic: true, function_name: 'coded', tags: ['x'] });
      for (const entry of list)
        expect(Object.keys(entry).sort()).toEqual(['description', 'display_name', 'function_name', 'id', 'is_dynamic', 'tags', 'thumbnail_url', 'type']);
    }
  });

  it('serves full metadata with the refined schema for a dynamic specimen', async () => {
    const app = await createTestApp();
    const res = await app.inject({ url: '/api/specimens/dyn-square' });
    expect(res.statusCode).toBe(200);
    const meta = res.json();
    expect(meta.is_dynamic).toBe(true);
    expect(meta.schema.title).toBe('square');
    expect(meta.schema.properties.size).toMatchObject({ type: 'number', default: 2, minimum: 0.1, maximum: 5 });
    expect(meta.story_text).toEqual([]);
    expect(meta.data_file).toBeNull();
    const stat = (await app.inject({ url: '/api/specimens/tri' })).json();
    expect(stat).toMatchObject({ data_file: 'tri.obj', schema: null, is_dynamic: false });
    const missing = await app.inject({ url: '/api/specimens/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ status_code: 404, detail: expect.stringContaining('nope') });
  });

  it('a dynamic specimen whose specimen.json gives no type shows its function’s return type', async () => {
    const dir = await makeSpecimensDir();
    mkdirSync(path.join(dir, 'cloudy'));
    writeFileSync(path.join(dir, 'cloudy', 'specimen.json'), JSON.stringify({ display_name: 'Cloudy', function_name: 'cloud' }));
    mkdirSync(path.join(dir, 'ramp-as-image'));
    writeFileSync(path.join(dir, 'ramp-as-image', 'specimen.json'), JSON.stringify({ display_name: 'Ramp', function_name: 'ramp', type: 'image' }));
    const app = await createTestApp({ specimensDir: dir });
    const byId = Object.fromEntries(((await app.inject({ url: '/api/specimens' })).json() as { id: string; type: string }[]).map((e) => [e.id, e.type]));
    expect(byId.cloudy).toBe('point_cloud');
    // A type that specimen.json gives is kept as given.
    expect(byId['ramp-as-image']).toBe('image');
    expect((await app.inject({ url: '/api/specimens/cloudy' })).json()).toMatchObject({ type: 'point_cloud', is_dynamic: true });
  });

  it('answers 404 for an unknown specimen on every specimen route', async () => {
    const app = await createTestApp();
    for (const [method, url] of [
      ['GET', '/api/specimens/zz/thumbnail'],
      ['GET', '/api/specimens/zz/data'],
      ['POST', '/api/specimens/zz/data'],
      ['POST', '/api/specimens/zz/start'],
    ] as const) {
      const res = await app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('reload rescans the specimens directory and reports the count on disk', async () => {
    const app = await createTestApp();
    const res = await app.inject({ url: '/api/specimens/reload' });
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(4);
  });
});

describe('static data', () => {
  it('streams the file with content type, length and a quoted file name', async () => {
    const app = await createTestApp();
    const res = await app.inject({ url: '/api/specimens/tri/data' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(OBJ_TEXT);
    expect(res.headers['content-length']).toBe(String(OBJ_TEXT.length));
    expect(res.headers['content-disposition']).toBe('attachment; filename="tri.obj"');
  });

  it('serves a .npy volume as a volume envelope with the sidecar geometry', async () => {
    const app = await createTestApp();
    const res = await app.inject({ url: '/api/specimens/vol/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-service-envelope-v1');
    const env = decodeEnvelope(res.rawPayload);
    if (env.type !== 'volume') throw new Error('not a volume');
    expect(env.shape).toEqual([2, 3, 4]);
    expect(env.dtype).toBe('float32');
    expect(Array.from(env.data.slice(0, 5))).toEqual([0, 1, 2, 3, 4]);
    expect(env.spacing).toEqual([1, 2, 3]);
    expect(env.origin).toEqual([0, 0, 1]);
  });

  it('never reads outside the specimens directory', async () => {
    const app = await createTestApp();
    const data = await app.inject({ url: '/api/specimens/escape/data' });
    expect(data.statusCode).toBeGreaterThanOrEqual(400);
    expect(data.body).not.toContain('root:');
    const thumb = await app.inject({ url: '/api/specimens/escape/thumbnail' });
    expect(thumb.headers['content-type']).toBe('image/png');
    for (const url of ['/api/specimens/..%2F..%2Fetc%2Fpasswd/data', '/api/specimens/%2Fetc%2Fpasswd/data', '/api/specimens/../../etc/passwd']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('root:');
    }
  });

  it('thumbnails: a data URI is decoded, a missing one is a placeholder PNG', async () => {
    const app = await createTestApp();
    app.vitrine.registerSpecimen({ id: 'with-uri', thumbnail: 'data:image/png;base64,iVBORw0KGgo=' }, () => ({
      vertices: new Float32Array(0),
      indices: new Uint32Array(0),
    }));
    const uri = await app.inject({ url: '/api/specimens/with-uri/thumbnail' });
    expect(uri.statusCode).toBe(200);
    expect(uri.headers['content-type']).toBe('image/png');
    expect(uri.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const placeholder = await app.inject({ url: '/api/specimens/tri/thumbnail' });
    expect(placeholder.statusCode).toBe(200);
    expect(placeholder.rawPayload.subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('dynamic data', () => {
  it('returns a mesh envelope using the schema defaults when there is no query string', async () => {
    const app = await createTestApp();
    const res = await app.inject({ url: '/api/specimens/dyn-square/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-service-envelope-v1');
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const env = decodeEnvelope(res.rawPayload);
    if (env.type !== 'mesh') throw new Error('not a mesh');
    // The specimen's refined default (2) is used.
    expect(Array.from(env.vertices.slice(3, 6))).toEqual([2, 0, 0]);
    expect(env.indices.length).toBe(6);
    expect(env.normals?.length).toBe(12);
  });

  it('POST /data performs the same operation as GET', async () => {
    const app = await createTestApp();
    const r = room();
    const get = await app.inject({ url: `/api/specimens/dyn-square/data?params=${encodeURIComponent('{"size":3}')}&room_id=${r}` });
    const post = await app.inject({ method: 'POST', url: '/api/specimens/dyn-square/data', payload: { params: { size: 3 }, room_id: r } });
    expect(post.statusCode).toBe(200);
    expect(post.rawPayload.equals(get.rawPayload)).toBe(true);
  });

  it('checks params: not JSON, not an object, bounds from specimen.json, unknown names', async () => {
    const app = await createTestApp();
    const cases: [string, string][] = [
      ['not-json', 'params'],
      ['[1,2]', 'object'],
      ['"text"', 'object'],
      ['{"size":6}', "'size'"],
      ['{"size":"big"}', "'size'"],
      ['{"label":"c"}', "'label'"],
      ['{"colour":1}', "'colour'"],
    ];
    for (const [params, mention] of cases) {
      const res = await app.inject({ url: `/api/specimens/dyn-square/data?params=${encodeURIComponent(params)}` });
      expect(res.statusCode, params).toBe(400);
      expect(res.json().detail, params).toContain(mention);
    }
    const post = await app.inject({ method: 'POST', url: '/api/specimens/dyn-square/data', payload: { params: 5 } });
    expect(post.statusCode).toBe(400);
  });

  it('encodes point clouds and images as JSON typed results on /data', async () => {
    const app = await createTestApp();
    app.vitrine.registerSpecimen({ id: 'pc', function_name: 'cloud_spec', returnType: 'point_cloud' }, (count = 2) => ({
      points: new Float32Array(count * 3).fill(1),
      scalars: new Float32Array(count).fill(0.5),
    }));
    const res = await app.inject({ url: '/api/specimens/pc/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ type: 'point_cloud', points: [1, 1, 1, 1, 1, 1], scalars: [0.5, 0.5] });
  });

  it('POST /start on a static specimen is a 400', async () => {
    const app = await createTestApp();
    const res = await app.inject({ method: 'POST', url: '/api/specimens/tri/start', payload: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toContain('static');
  });
});
