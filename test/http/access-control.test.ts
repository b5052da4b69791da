import { hostname, networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { isHostAllowed, resolveAllowedHosts } from '../../core/http/allowed-hosts.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { listenTestApp, requestWithHost } from '../helpers/raw-http.ts';

async function post(
  url: string,
  contentType: string | null,
  body?: string,
): Promise<{ status: number; json: { status_code: number; code: string; detail: string } }> {
  const res = await fetch(url, { method: 'POST', headers: contentType === null ? {} : { 'content-type': contentType }, body });
  return { status: res.status, json: (await res.json()) as { status_code: number; code: string; detail: string } };
}

describe('JSON routes take only JSON bodies', () => {
  it('answers 415 to text/plain, form, multipart and untyped bodies, before any route runs', async () => {
    const { app, url } = await listenTestApp();
    const stats = () => app.vitrine.cacheStats();
    await fetch(`${url}/api/processing/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"function_name":"square"}' });
    const entries = (await stats()).total_entries;
    expect(entries).toBeGreaterThan(0);
    const cases: [string, string | null, string | undefined][] = [
      ['/api/processing/cache/clear', 'text/plain', '{}'],
      ['/api/processing/cache/clear', 'text/plain;charset=UTF-8', ''],
      ['/api/processing/cache/clear', 'application/x-www-form-urlencoded', 'a=1'],
      ['/api/processing/cache/clear', 'multipart/form-data; boundary=x', '--x--\r\n'],
      ['/api/processing/invoke', 'text/plain', '{"function_name":"square"}'],
      ['/api/specimens/anything/start', 'text/plain', '{}'],
      ['/api/specimens/anything/data', 'application/x-www-form-urlencoded', 'params=1'],
      ['/api/processing/invoke', null, '{"function_name":"square"}'],
    ];
    for (const [path, type, body] of cases) {
      const res = await post(`${url}${path}`, type, body);
      expect(res.status, `${path} ${type}`).toBe(415);
      expect(res.json).toMatchObject({ status_code: 415, code: 'SPC_ERR_UNSUPPORTED_MEDIA_TYPE' });
    }
    expect((await stats()).total_entries).toBe(entries);
  });

  it('accepts application/json, */*+json and no body at all', async () => {
    const { url } = await listenTestApp();
    expect((await post(`${url}/api/processing/invoke`, 'application/json; charset=utf-8', '{"function_name":"square"}')).status).toBe(200);
    expect((await post(`${url}/api/processing/invoke`, 'application/vnd.example+json', '{"function_name":"square"}')).status).toBe(200);
    const cleared = await post(`${url}/api/processing/cache/clear`, null);
    expect(cleared.status).toBe(200);
    const bad = await post(`${url}/api/processing/invoke`, 'application/json', '{"function_name":');
    expect(bad.json).toMatchObject({ status_code: 400, code: 'SPC_ERR_BODY_INVALID_JSON' });
  });
});

describe('Host allow-list', () => {
  it('bound to loopback: serves localhost, 127.0.0.1, [::1] on any port; 403 for other hosts', async () => {
    const { url } = await listenTestApp();
    for (const host of ['localhost', 'localhost:9', '127.0.0.1:80', '[::1]:8000', 'LOCALHOST.']) {
      expect((await requestWithHost(`${url}/api/specimens/`, host)).status, host).toBe(200);
    }
    for (const host of ['evil.example', 'evil.example:80', '127.0.0.2', 'localhost.evil.example']) {
      const res = await requestWithHost(`${url}/api/specimens/`, host);
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ status_code: 403, code: 'SPC_ERR_HOST_NOT_ALLOWED' });
    }
    const post = await requestWithHost(`${url}/api/processing/cache/clear`, 'evil.example', { method: 'POST' });
    expect(post.status).toBe(403);
  });

  it('takes an explicit list (and * for any)', async () => {
    const { url } = await listenTestApp({ allowedHosts: ['gallery.example', '.lab.example'] });
    expect((await requestWithHost(`${url}/api/specimens/`, 'gallery.example:8443')).status).toBe(200);
    expect((await requestWithHost(`${url}/api/specimens/`, 'scope.lab.example')).status).toBe(200);
    expect((await requestWithHost(`${url}/api/specimens/`, 'localhost')).status).toBe(403);
    const any = await listenTestApp({ allowedHosts: ['*'] });
    expect((await requestWithHost(`${any.url}/api/specimens/`, 'whatever.example')).status).toBe(200);
  });

  it('answers 400 to a Host that is not a name with a port, whatever the list; URLs handed out keep the name', async () => {
    for (const allowedHosts of [null, ['*']]) {
      const { url } = await listenTestApp(allowedHosts ? { allowedHosts } : {});
      for (const host of ['localhost:1@evil.example', 'localhost:80/x', 'localhost:', 'local host', 'localhost:123456', '[::1]x']) {
        const res = await requestWithHost(`${url}/api/rooms/lax/neuroglancer`, host);
        expect(res.status, host).toBe(400);
        expect(JSON.parse(res.body)).toMatchObject({ status_code: 400, code: 'SPC_ERR_HOST_MALFORMED' });
      }
      const mark = { kind: 'point', points: [[1, 2, 3]] };
      await fetch(`${url}/api/rooms/lax/annotations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(mark) });
      const state = await requestWithHost(`${url}/api/rooms/lax/neuroglancer`, 'localhost:9');
      expect(state.status).toBe(200);
      expect(state.body).toContain('precomputed://http://localhost:9/api/rooms/lax/annotations/precomputed/point');
    }
  });

  it('bound beyond loopback: accepts the machine\'s own names and addresses, 403 for others', async () => {
    const any = resolveAllowedHosts('0.0.0.0', null);
    const name = hostname().toLowerCase();
    for (const host of ['localhost:1', '127.0.0.1', '[::1]:8000', `${name}:8000`, `${name}.local`, '0.0.0.0:9']) {
      expect(isHostAllowed(any, host), host).toBe(true);
    }
    for (const info of Object.values(networkInterfaces()).flat()) {
      if (info && info.family === 'IPv4') expect(isHostAllowed(any, `${info.address}:8000`), info.address).toBe(true);
    }
    for (const host of ['evil.example', `${name}.evil.example`, '10.255.255.254']) expect(isHostAllowed(any, host), host).toBe(false);
    expect(resolveAllowedHosts('::', ['*'])).toBeNull();
    const v6 = resolveAllowedHosts('::1', null);
    expect(isHostAllowed(v6, '[::1]:8000')).toBe(true);
    expect(isHostAllowed(v6, 'evil.example')).toBe(false);
    expect(isHostAllowed(resolveAllowedHosts('127.0.0.5', null), '127.0.0.5:1')).toBe(true);
    const app = await createTestApp({ host: '0.0.0.0' });
    expect((await app.inject({ url: '/api/specimens/', headers: { host: 'gallery.example' } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/specimens/', headers: { host: `${name}:8000` } })).statusCode).toBe(200);
  });

  it('rejects a bad option value at creation', async () => {
    await expect(createApp({ allowedHosts: 'x' as unknown as string[], logLevel: false, pluginsDir: null, specimensDir: null })).rejects.toThrow(
      /allowedHosts/,
    );
  });
});
