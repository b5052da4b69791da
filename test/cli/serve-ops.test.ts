/**
 * The operations options through `vitrine serve` and its environment over real HTTP:
 * VITRINE_ADMIN_TOKEN guards /metrics (each plugin's version there) and cache stats (401 without,
 * 403 wrong, JSON bodies),
 * VITRINE_CORS_ORIGIN restricts CORS (preflight 204), and /healthz and /readyz stay open.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

const hosts: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop('SIGKILL')));
});

describe('vitrine serve operations options', () => {
  it('takes the admin token and CORS origins from VITRINE_ADMIN_TOKEN and VITRINE_CORS_ORIGIN', async () => {
    const host = await spawnHost(['--no-viewer'], {
      env: {
        VITRINE_PORT: '0',
        VITRINE_PLUGINS: await fixturePluginsDir(),
        VITRINE_SPECIMENS: await makeSpecimensDir(),
        VITRINE_ADMIN_TOKEN: 'ops-secret',
        VITRINE_CORS_ORIGIN: 'https://xr.example, https://viewer.example',
      },
    });
    hosts.push(host);
    expect(await (await fetch(`${host.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${host.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });

    for (const path of ['/metrics', '/api/processing/cache/stats']) {
      const none = await fetch(`${host.url}${path}`);
      expect(none.status, path).toBe(401);
      expect(await none.json()).toMatchObject({ status_code: 401, code: 'SPC_ERR_ADMIN_TOKEN_MISSING' });
      const wrong = await fetch(`${host.url}${path}`, { headers: { authorization: 'Bearer ops-secreT' } });
      expect(wrong.status, path).toBe(403);
      expect(await wrong.json()).toMatchObject({ status_code: 403, code: 'SPC_ERR_ADMIN_TOKEN_WRONG' });
      const right = await fetch(`${host.url}${path}`, { headers: { authorization: 'Bearer ops-secret' } });
      expect(right.status, path).toBe(200);
      await right.arrayBuffer();
    }
    // Each plugin served, by version, bundle and signature check, with what it brings and what was refused.
    const metrics = await (await fetch(`${host.url}/metrics`, { headers: { authorization: 'Bearer ops-secret' } })).text();
    const { plugins } = (await (await fetch(`${host.url}/api/plugins`)).json()) as { plugins: { plugin: string; version: string; bundle: string }[] };
    expect(plugins.length).toBeGreaterThan(0);
    for (const plugin of plugins) {
      const info = `vitrine_plugin_info{plugin="${plugin.plugin}",version="${plugin.version}",bundle="${plugin.bundle.slice(0, 12)}",signature="unsigned"} 1`;
      expect(metrics).toContain(info);
      expect(metrics).toContain(`vitrine_plugin_versions_kept{plugin="${plugin.plugin}"} 1`);
      expect(metrics).toContain(`vitrine_plugin_problems{plugin="${plugin.plugin}"} 0`);
      expect(metrics).toMatch(new RegExp(`vitrine_plugin_functions\\{plugin="${plugin.plugin}",what="functions"\\} [1-9]`));
    }
    expect(metrics).toContain('# TYPE vitrine_federation_worker_specimens gauge');
    expect((await fetch(`${host.url}/api/specimens/`)).status).toBe(200);

    const preflight = await fetch(`${host.url}/api/specimens/dyn-square/data`, {
      method: 'OPTIONS',
      headers: { origin: 'https://viewer.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://viewer.example');
    const envelope = await fetch(`${host.url}/api/specimens/dyn-square/data`, { headers: { origin: 'https://xr.example' } });
    expect(envelope.status).toBe(200);
    expect(envelope.headers.get('access-control-allow-origin')).toBe('https://xr.example');
    expect(envelope.headers.get('access-control-expose-headers')).toContain('Content-Length');
    expect(Number(envelope.headers.get('content-length'))).toBe((await envelope.arrayBuffer()).byteLength);
    const stranger = await fetch(`${host.url}/api/specimens/`, { headers: { origin: 'https://evil.example' } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});
