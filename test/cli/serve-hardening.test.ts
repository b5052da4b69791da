import { afterEach, describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { parseRawResponse, rawExchange, requestWithHost } from '../helpers/raw-http.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

const hosts: RunningHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.stop('SIGKILL')));
});

describe('vitrine serve hardening options', () => {
  it('passes the bound host and --allowed-hosts (or VITRINE_ALLOWED_HOSTS) into the host options', () => {
    expect(parseServeOptions(['--host', '::1']).host_options).toMatchObject({ host: '::1', allowedHosts: null });
    expect(parseServeOptions(['--allowed-hosts', 'a.example, b.example']).host_options.allowedHosts).toEqual(['a.example', 'b.example']);
    expect(parseServeOptions([], { VITRINE_ALLOWED_HOSTS: '*' }).host_options.allowedHosts).toEqual(['*']);
    expect(() => parseServeOptions(['--allowed-hosts', ' , '])).toThrow(/allowed-hosts/);
  });

  it('takes --plugins none and --specimens none as no directory', () => {
    expect(parseServeOptions(['--plugins', 'none', '--specimens', 'NONE']).host_options).toMatchObject({ pluginsDir: null, specimensDir: null });
    expect(parseServeOptions([], { VITRINE_PLUGINS: 'none' }).host_options.pluginsDir).toBeNull();
    expect(parseServeOptions([]).host_options).toMatchObject({ pluginsDir: 'build/out', specimensDir: 'specimens' });
  });

  it('serves only the allowed Host names from the environment, with no directories for none', async () => {
    const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none'], { env: { VITRINE_ALLOWED_HOSTS: 'gallery.example' } });
    hosts.push(host);
    const ok = await requestWithHost(`${host.url}/api/specimens/`, 'gallery.example:8000');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual([]);
    const denied = await requestWithHost(`${host.url}/api/specimens/`, new URL(host.url).host);
    expect(denied.status).toBe(403);
    expect(JSON.parse(denied.body)).toMatchObject({ code: 'SPC_ERR_HOST_NOT_ALLOWED' });
    expect(host.stderr()).not.toMatch(/none/);
  });

  it('--request-timeout (or VITRINE_REQUEST_TIMEOUT) ends slow bodies with 408; --write-timeout parses', async () => {
    expect(parseServeOptions(['--request-timeout', '2.5', '--write-timeout', '0']).host_options).toMatchObject({
      requestTimeoutSeconds: 2.5,
      writeTimeoutSeconds: 0,
    });
    expect(parseServeOptions([]).host_options.requestTimeoutSeconds).toBeUndefined();
    expect(parseServeOptions(['--max-rss', '1000000'], { VITRINE_MAX_EVENT_LOOP_DELAY: '250' }).host_options).toMatchObject({
      maxRssBytes: 1_000_000,
      maxEventLoopDelayMs: 250,
    });
    expect(() => parseServeOptions(['--request-timeout', 'soon'])).toThrow(/request-timeout/);
    const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none'], { env: { VITRINE_REQUEST_TIMEOUT: '1' } });
    hosts.push(host);
    const raw = await rawExchange(host.port, [
      'POST /api/processing/cache/clear HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{',
    ]);
    const res = parseRawResponse(raw);
    expect(res.status).toBe(408);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.body)).toMatchObject({ status_code: 408, code: 'SPC_ERR_REQUEST_TIMEOUT' });
  });
});
