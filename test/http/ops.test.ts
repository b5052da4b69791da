/**
 * The operations surface over HTTP: health and readiness, CORS (preflight, exposed headers,
 * envelopes and errors), the admin token, Prometheus metrics, compressed JSON, and the
 * OpenAPI document (validated, and following a reload) with its /docs page.
 */
import { gunzipSync } from 'node:zlib';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { installErrorHandlers } from '../../core/http/error-handler.ts';
import { healthRoutes, Readiness } from '../../core/http/ops/routes-health.ts';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';

describe('health and readiness', () => {
  it('answers /healthz and /readyz', async () => {
    const app = await createTestApp();
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz 503 with the JSON error naming the first failing check; /healthz stays 200', async () => {
    const app = Fastify();
    installErrorHandlers(app);
    const readiness = new Readiness();
    let redisUp = false;
    readiness.add('plugins', () => null);
    readiness.add('redis', async () => (redisUp ? null : 'unreachable'));
    await app.register(healthRoutes, { readiness });
    const down = await app.inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status_code: 503, detail: 'not ready: redis: unreachable', code: 'SPC_ERR_NOT_READY' });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    redisUp = true;
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    await app.close();
  });
});

describe('CORS', () => {
  it('is open to readers by default: preflight 204, and every answer (envelope, JSON, error) carries the headers', async () => {
    const app = await createTestApp();
    // A read's preflight (a write's is refused to unlisted origins: cross-site-writes.test.ts).
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/specimens/dyn-square/data',
      headers: { origin: 'https://xr.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    const envelope = await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${room()}`, headers: { origin: 'https://xr.example' } });
    expect(envelope.statusCode).toBe(200);
    expect(envelope.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(envelope.headers['access-control-expose-headers']);
    for (const name of ['Content-Disposition', 'Content-Length', 'Content-Range']) expect(exposed).toContain(name);
    const missing = await app.inject({ method: 'GET', url: '/api/specimens/nope', headers: { origin: 'https://xr.example' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe('*');
  });

  it('--cors-origin restricts to a list, and none sends no CORS headers', async () => {
    const listed = await createTestApp({ corsOrigin: 'https://a.example,https://b.example' });
    const ok = await listed.inject({ method: 'GET', url: '/api/specimens/', headers: { origin: 'https://b.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://b.example');
    const other = await listed.inject({ method: 'GET', url: '/api/specimens/', headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    const none = await createTestApp({ corsOrigin: 'none' });
    expect(
      (await none.inject({ method: 'GET', url: '/api/specimens/', headers: { origin: 'https://a.example' } })).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });
});

describe('--admin-token', () => {
  it('guards cache stats, cache clear, reload and /metrics (401 without, 403 wrong, 401 an unknown user) and leaves the rest open', async () => {
    const app = await createTestApp({ adminToken: 's3cret' });
    for (const [method, url] of [
      ['GET', '/api/processing/cache/stats'],
      ['POST', '/api/processing/cache/clear'],
      ['GET', '/api/specimens/reload'],
      ['GET', '/metrics'],
    ] as const) {
      const none = await app.inject({ method, url });
      expect(none.statusCode, url).toBe(401);
      expect(none.json()).toMatchObject({ status_code: 401, code: 'SPC_ERR_ADMIN_TOKEN_MISSING' });
      const wrong = await app.inject({ method, url, headers: { authorization: 'Bearer nope' } });
      expect(wrong.statusCode, url).toBe(403);
      expect(wrong.json()).toMatchObject({ code: 'SPC_ERR_ADMIN_TOKEN_WRONG' });
      // A user's token the host does not know is refused as on any route.
      const unknownUser = await app.inject({ method, url, headers: { authorization: `Bearer vt_${'a'.repeat(43)}` } });
      expect(unknownUser.statusCode, url).toBe(401);
      expect(unknownUser.json()).toMatchObject({ code: 'SPC_ERR_TOKEN_UNKNOWN' });
      expect((await app.inject({ method, url, headers: { authorization: 'Bearer s3cret' } })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/api/specimens/' })).statusCode).toBe(200);
  });

  it('answers any unknown token 401 on the admin routes and /mcp of a host with users, where it may be anyone’s', async () => {
    const people = await peopleDir(['ada']);
    const app = await createTestApp({ adminToken: 's3cret', dataDir: people.dir });
    const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    for (const [method, url] of [['GET', '/metrics'], ['POST', '/api/processing/cache/clear'], ['POST', '/mcp']] as const) {
      for (const token of ['nope', 'an-unknown-user-token', `vt_${'a'.repeat(43)}`]) {
        const refused = await app.inject({ method, url, headers: { ...mcp, ...bearer(token) }, payload: method === 'POST' ? list : undefined });
        expect(refused.statusCode, `${url} ${token}`).toBe(401);
        expect(refused.json()).toMatchObject({ code: 'SPC_ERR_TOKEN_UNKNOWN' });
      }
      const admin = await app.inject({ method, url, headers: { ...mcp, ...bearer('s3cret') }, payload: method === 'POST' ? list : undefined });
      expect(admin.statusCode, url).toBe(200);
    }
    expect((await app.inject({ method: 'GET', url: '/metrics', headers: bearer(people.tokens.ada!) })).statusCode).toBe(403);
  });
});

describe('/metrics', () => {
  it('reports requests, cache, jobs and compute in the Prometheus text format', async () => {
    const app = await createTestApp();
    const r = room();
    await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${r}` });
    await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${r}` });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.headers['content-type']).toContain('text/plain');
    const text = res.body;
    expect(text).toMatch(/vitrine_http_request_duration_seconds_count\{method="GET",route="\/api\/specimens\/:id\/data",status="200"\} 2/);
    expect(text).toMatch(/vitrine_cache_lookups\{outcome="hit"\} 1/);
    expect(text).toMatch(/vitrine_cache_lookups\{outcome="miss"\} 1/);
    expect(text).toMatch(/vitrine_cache_entries 1/);
    expect(text).toMatch(/vitrine_http_response_bytes_total\{kind="envelope"\} \d+/);
    expect(text).toMatch(/vitrine_jobs\{state="running"\} 0/);
    expect(text).toMatch(/vitrine_compute_threads 2/);
  });
});

describe('compression', () => {
  it('compresses JSON when asked, never envelopes', async () => {
    const app = await createTestApp();
    const body = { function_name: 'cloud', kwargs: { count: 2000 }, room_id: room() };
    const plain = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: body });
    const gz = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: body, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gz.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const envelope = await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${room()}`, headers: { 'accept-encoding': 'gzip, br' } });
    expect(envelope.headers['content-encoding']).toBeUndefined();
    expect(Number(envelope.headers['content-length'])).toBe(envelope.rawPayload.length);
  });
});

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document with every route, the error body and each function’s parameters; it follows reloads', async () => {
    const app = await createTestApp();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const path of ['/api/specimens/', '/api/specimens/{id}/data', '/api/processing/invoke', '/api/jobs/{id}/progress'])
      expect(Object.keys(doc.paths)).toContain(path);
    expect(doc.paths['/api/jobs/{id}/progress'].get.responses['4XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    const invoke = doc.paths['/api/processing/invoke'].post.requestBody.content['application/json'].schema.oneOf as {
      properties: { function_name: { const: string }; kwargs: { properties: Record<string, unknown> } };
    }[];
    const square = invoke.find((f) => f.properties.function_name.const === 'square')!;
    expect(Object.keys(square.properties.kwargs.properties)).toEqual(['size', 'label', 'flag', 'note']);
    // /data is described once: no path per specimen, each dynamic one's schema beside it.
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/api/specimens/') && p.endsWith('/data'))).toEqual(['/api/specimens/{id}/data']);
    expect(doc.components.schemas['Params.late']).toBeUndefined();
    addDynamicSpecimen(app, 'late', 'square');
    const after = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(after.paths).filter((p) => p.startsWith('/api/specimens/') && p.endsWith('/data'))).toEqual(['/api/specimens/{id}/data']);
    expect(after.components.schemas['Params.late']).toMatchObject({ title: 'late', type: 'object' });
    expect(Object.keys(after.components.schemas['Params.late'].properties)).toEqual(['size', 'label', 'flag', 'note']);
    const dataGet = after.paths['/api/specimens/{id}/data'].get;
    expect(dataGet.parameters.find((p: { name: string }) => p.name === 'id').schema.enum).toContain('late');
    expect(dataGet.parameters.find((p: { name: string }) => p.name === 'params').content['application/json'].schema.anyOf).toContainEqual({
      $ref: '#/components/schemas/Params.late',
    });
    expect(dataGet.description).toContain('| `late` | mesh | [Params.late]');
    expect((await new Validator().validate(after)).errors ?? []).toEqual([]);
    const page = await app.inject({ method: 'GET', url: '/docs' });
    const html =
      page.statusCode === 302
        ? await app.inject({
            method: 'GET',
            url: String(page.headers.location).startsWith('/') ? String(page.headers.location) : `/docs/${page.headers.location}`,
          })
        : page;
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
  });
});

describe('OpenAPI for readers', () => {
  it('groups operations by tag, lists the catalog once and leaves internal routes out', async () => {
    const app = await createTestApp();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    expect(doc.tags.map((t) => t.name)).toEqual(['specimens', 'processing', 'jobs', 'rooms and events', 'operations']);
    const paths = Object.keys(doc.paths);
    expect(paths.filter((p) => p === '/api/specimens' || p === '/api/specimens/')).toEqual(['/api/specimens/']);
    for (const internal of ['/', '/viewer/{*}', '/client.js']) expect(paths).not.toContain(internal);
    expect(paths.some((p) => p.startsWith('/docs') || p.startsWith('/ws/'))).toBe(false);
    const tagOf = (path: string, method = 'get'): string[] | undefined => doc.paths[path]?.[method]?.tags;
    expect(tagOf('/api/specimens/')).toEqual(['specimens']);
    expect(tagOf('/api/processing/invoke', 'post')).toEqual(['processing']);
    expect(tagOf('/api/jobs/{id}', 'delete')).toEqual(['jobs']);
    expect(tagOf('/api/rooms/{room_id}/events')).toEqual(['rooms and events']);
    expect(tagOf('/healthz')).toEqual(['operations']);
    // Every operation is in exactly one of the groups.
    const names = new Set(doc.tags.map((t) => t.name));
    for (const operations of Object.values(doc.paths))
      for (const op of Object.values(operations)) expect(op.tags?.length === 1 && names.has(op.tags[0]!)).toBe(true);
  });

  it('serves /docs in the viewer’s colours from the host itself', async () => {
    const app = await createTestApp();
    const page = await app.inject({ method: 'GET', url: '/docs/' });
    const html = page.statusCode === 302 ? await app.inject({ method: 'GET', url: '/docs/static/index.html' }) : page;
    expect(html.body).toContain('vitrine.css');
    expect(html.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']+\.(css|js)/);
    const css = await app.inject({ method: 'GET', url: '/docs/static/theme/vitrine.css' });
    expect(css.statusCode).toBe(200);
    expect(css.body).toContain('#0a0e14');
  });
});
