import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { listenTestApp } from '../helpers/raw-http.ts';

type ErrorJson = { status_code: number; code: string; detail: string };

async function postJson(url: string, body: unknown): Promise<{ status: number; json: ErrorJson }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as ErrorJson };
}

describe('input the host echoes or ignores', () => {
  it('echoes at most about 200 characters of a huge function name or URL', async () => {
    const { url } = await listenTestApp();
    const name = 'f'.repeat(100_000);
    const res = await postJson(`${url}/api/processing/invoke`, { function_name: name });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe('SPC_ERR_FUNCTION_NOT_FOUND');
    expect(res.json.detail.length).toBeLessThan(300);
    expect(res.json.detail).toContain(`${'f'.repeat(200)}…`);
    const route = await fetch(`${url}/${'x'.repeat(5000)}`);
    const body = (await route.json()) as ErrorJson;
    expect(body.code).toBe('SPC_ERR_ROUTE_NOT_FOUND');
    expect(body.detail.length).toBeLessThan(300);
  });

  it('answers 400 naming __proto__, constructor or prototype given as a parameter', async () => {
    const { app, url } = await listenTestApp();
    addDynamicSpecimen(app, 'dyn', 'square');
    const invoke = await fetch(`${url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"function_name":"square","kwargs":{"__proto__":{"size":3}}}',
    });
    expect(invoke.status).toBe(400);
    expect(await invoke.json()).toMatchObject({ code: 'SPC_ERR_PARAM_RESERVED', detail: expect.stringContaining("'__proto__'") });
    const data = await fetch(`${url}/api/specimens/dyn/data?params=${encodeURIComponent('{"constructor":1}')}`);
    expect(data.status).toBe(400);
    expect(((await data.json()) as ErrorJson).detail).toContain("'constructor'");
    const start = await fetch(`${url}/api/specimens/dyn/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"params":{"prototype":1}}',
    });
    expect(start.status).toBe(400);
    expect(((await start.json()) as ErrorJson).detail).toContain("'prototype'");
  });

  it('answers HEAD on a dynamic /data without computing, with the type GET would send', async () => {
    const { app, url } = await listenTestApp();
    addDynamicSpecimen(app, 'slow', 'spin');
    addDynamicSpecimen(app, 'pts', 'cloud');
    const r = room();
    const head = await fetch(`${url}/api/specimens/slow/data?room_id=${r}&params=${encodeURIComponent('{"seconds":30}')}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/x-service-envelope-v1');
    expect(head.headers.get('content-length')).toBeNull();
    const json = await fetch(`${url}/api/specimens/pts/data?room_id=${r}`, { method: 'HEAD' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const stats = await app.vitrine.cacheStats();
    expect(stats.entries.filter((e) => e.room_id === r)).toEqual([]);
    const bad = await fetch(`${url}/api/specimens/slow/data?params=${encodeURIComponent('{"seconds":"x"}')}`, { method: 'HEAD' });
    expect(bad.status).toBe(400);
    expect((await fetch(`${url}/api/specimens/nope/data`, { method: 'HEAD' })).status).toBe(404);
  });
});
