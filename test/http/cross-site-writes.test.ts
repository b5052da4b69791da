/**
 * Who may write from a browser, over real HTTP with the headers browsers send: a write that a
 * browser marks as coming from another origin (`Sec-Fetch-Site`, or `Origin` against `Host`)
 * is a 403 unless its origin is listed in `--cors-origin`; `*` lets pages read but lists none
 * for writes; native clients and same-origin pages are unaffected; admin routes grant no CORS
 * to unlisted origins; a `null` JSON body is a 400.
 */
import { describe, expect, it } from 'vitest';
import { listenTestApp, requestWithHost, type RawResponse } from '../helpers/raw-http.ts';

const EVIL = 'https://evil.example';
const JSON_TYPE = { 'content-type': 'application/json' };

function send(url: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const host = new URL(url).host;
  return requestWithHost(`${url}${path}`, host, { method, headers, body });
}

const writes: [string, string, Record<string, string>, string | undefined][] = [
  ['POST', '/api/specimens/dyn-square/start', {}, undefined],
  ['POST', '/api/processing/cache/clear', {}, undefined],
  ['POST', '/api/processing/invoke', JSON_TYPE, '{"function_name":"square"}'],
  ['POST', '/api/specimens/dyn-square/data', JSON_TYPE, '{}'],
  ['DELETE', '/api/jobs/00000000-0000-4000-8000-000000000000', {}, undefined],
];

describe('cross-site writes', () => {
  it('refuses every write a browser marks as cross-origin, under the default * too', async () => {
    const { app, url } = await listenTestApp();
    const before = (await app.vitrine.cacheStats()).total_entries;
    const marks: Record<string, string>[] = [
      { origin: EVIL, 'sec-fetch-site': 'cross-site' },
      { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-site' },
      { origin: EVIL },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${Number(new URL(url).port) + 1}` },
    ];
    for (const mark of marks) {
      for (const [method, path, headers, body] of writes) {
        const res = await send(url, method, path, { ...headers, ...mark }, body);
        expect(res.status, `${method} ${path} ${JSON.stringify(mark)}`).toBe(403);
        expect(JSON.parse(res.body)).toMatchObject({ status_code: 403, code: 'SPC_ERR_CROSS_SITE_WRITE' });
      }
    }
    expect((await app.vitrine.cacheStats()).total_entries).toBe(before);
    const detail = JSON.parse((await send(url, 'POST', '/api/processing/cache/clear', { origin: EVIL })).body).detail as string;
    expect(detail).toContain(EVIL);
    expect(detail).toContain('--cors-origin');
  });

  it('lets native clients, same-origin pages and navigations write', async () => {
    const { url } = await listenTestApp();
    const same = new URL(url).origin;
    const allowed: Record<string, string>[] = [
      {},
      { 'sec-fetch-site': 'same-origin', origin: same },
      { 'sec-fetch-site': 'none' },
      { origin: same },
      { origin: `http://LOCALHOST:${new URL(url).port}`, host: `localhost:${new URL(url).port}` },
    ];
    for (const mark of allowed) {
      const res = await requestWithHost(`${url}/api/processing/invoke`, mark.host ?? new URL(url).host, {
        method: 'POST',
        headers: { ...JSON_TYPE, ...Object.fromEntries(Object.entries(mark).filter(([k]) => k !== 'host')) },
        body: '{"function_name":"square"}',
      });
      expect(res.status, JSON.stringify(mark)).toBe(200);
    }
    expect((await send(url, 'POST', '/api/processing/cache/clear', { 'sec-fetch-site': 'same-origin', origin: same })).status).toBe(200);
  });

  it('lets a listed origin write, with CORS granting it; * beside it still lists no other', async () => {
    const page = 'http://viewer.example:8443';
    const { url } = await listenTestApp({ corsOrigin: `*, ${page}` });
    const res = await send(url, 'POST', '/api/processing/invoke', { ...JSON_TYPE, origin: page, 'sec-fetch-site': 'cross-site' }, '{"function_name":"square"}');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(page);
    const preflight = await send(url, 'OPTIONS', '/api/processing/invoke', {
      origin: page, 'sec-fetch-site': 'cross-site', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(page);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    const other = await send(url, 'POST', '/api/processing/invoke', { ...JSON_TYPE, origin: 'http://viewer.example:8444' }, '{"function_name":"square"}');
    expect(other.status).toBe(403);
  });

  it('grants no write in a preflight from an unlisted origin, and lets it read under *', async () => {
    const { url } = await listenTestApp();
    for (const method of ['POST', 'DELETE']) {
      const preflight = await send(url, 'OPTIONS', '/api/processing/invoke', {
        origin: EVIL, 'sec-fetch-site': 'cross-site', 'access-control-request-method': method, 'access-control-request-headers': 'content-type',
      });
      expect(preflight.status).toBe(403);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(JSON.parse(preflight.body)).toMatchObject({ code: 'SPC_ERR_CROSS_SITE_WRITE' });
    }
    const readPreflight = await send(url, 'OPTIONS', '/api/specimens/', {
      origin: EVIL, 'sec-fetch-site': 'cross-site', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range',
    });
    expect(readPreflight.status).toBe(204);
    expect(readPreflight.headers['access-control-allow-origin']).toBe('*');
    expect(readPreflight.headers['access-control-allow-methods']).not.toContain('POST');
    const read = await send(url, 'GET', '/api/specimens/', { origin: EVIL, 'sec-fetch-site': 'cross-site' });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses every browser write from another origin with --cors-origin none, and grants no CORS', async () => {
    const { url } = await listenTestApp({ corsOrigin: 'none' });
    const res = await send(url, 'POST', '/api/specimens/dyn-square/start', { origin: EVIL });
    expect(res.status).toBe(403);
    const read = await send(url, 'GET', '/api/specimens/', { origin: EVIL, 'sec-fetch-site': 'cross-site' });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('grants admin routes no CORS for an unlisted origin, and CORS for a listed one', async () => {
    const page = 'https://ops.example';
    const { url } = await listenTestApp({ corsOrigin: `*,${page}` });
    for (const path of ['/api/processing/cache/stats', '/api/specimens/reload', '/metrics']) {
      const read = await send(url, 'GET', path, { origin: EVIL, 'sec-fetch-site': 'cross-site' });
      expect(read.headers['access-control-allow-origin'], path).toBeUndefined();
      const preflight = await send(url, 'OPTIONS', path, {
        origin: EVIL,
        'sec-fetch-site': 'cross-site',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      });
      expect(preflight.headers['access-control-allow-origin'], path).toBeUndefined();
      const listed = await send(url, 'GET', path, { origin: page, 'sec-fetch-site': 'cross-site' });
      expect(listed.headers['access-control-allow-origin'], path).toBe(page);
    }
    const clear = await send(url, 'OPTIONS', '/api/processing/cache/clear', {
      origin: EVIL,
      'sec-fetch-site': 'cross-site',
      'access-control-request-method': 'POST',
    });
    expect(clear.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('null JSON bodies', () => {
  it('answers 400 on every JSON route', async () => {
    const { url } = await listenTestApp();
    for (const path of ['/api/specimens/dyn-square/data', '/api/specimens/dyn-square/start', '/api/processing/invoke', '/api/processing/cache/clear']) {
      const res = await send(url, 'POST', path, JSON_TYPE, 'null');
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toMatchObject({ status_code: 400, code: 'SPC_ERR_BODY_NULL' });
    }
  });
});
