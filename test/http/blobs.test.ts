/**
 * Blob URLs over real HTTP: `/data`, `/result` and `/invoke` name their bytes (`X-Blob-Id`, a
 * strong `ETag`), and `/api/blobs/{blob_id}` serves exactly those bytes for good (immutable
 * caching, no Vary, no cookie), with ranges, 304s, and the Content-Encoding the id fixes
 * whatever the request accepts. Ranges on exports (`format=npy`) answer 206. Answers that
 * change (catalog, job status) are `no-cache` with an ETag and 304. Room events carry
 * `blob_id`. With `accelRedirect`, `/data` and `/result` hand the bytes to the proxy in front.
 */
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { addDynamicSpecimen, room, waitForJob } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { listenTestApp, type ListeningApp } from '../helpers/raw-http.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { openStream } from '../helpers/sse-reader.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is taken as sent: nothing decompressed, nothing added. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'accept-encoding': 'identity', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function post(url: string, json: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return get(url, { 'content-type': 'application/json', ...headers }, 'POST', JSON.stringify(json));
}

function expectImmutable(answer: Answer, id: string): void {
  expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(answer.headers.etag).toBe(`"${id}"`);
  expect(answer.headers['x-blob-id']).toBe(id);
  expect(answer.headers['accept-ranges']).toBe('bytes');
  expect(answer.headers.vary).toBeUndefined();
  expect(answer.headers['set-cookie']).toBeUndefined();
}

let host: ListeningApp;
const data = (id: string, query: Record<string, string> = {}) => `${host.url}/api/specimens/${id}/data?${new URLSearchParams(query)}`;

// One host for the whole file (the accelRedirect case starts its own).
beforeAll(async () => {
  const app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  host = { app, port: (app.server.address() as AddressInfo).port, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
  addDynamicSpecimen(host.app, 'dyn-ramp', 'ramp');
  addDynamicSpecimen(host.app, 'dyn-cloud', 'cloud');
});
afterAll(() => host?.app.close());

describe('blob URLs', () => {
  it('names the envelope of a /data answer by its result id and serves the same bytes for good, with ranges and 304', async () => {
    const answer = await get(data('dyn-square', { room_id: room() }));
    expect(answer.status).toBe(200);
    const id = answer.headers['x-blob-id'] as string;
    expect(id).toBe(answer.headers['x-result-id']);
    expect(answer.headers.etag).toBe(`"${id}"`);
    expect(answer.headers['cache-control']).toBe('no-cache');

    const blob = await get(`${host.url}/api/blobs/${id}`);
    expect(blob.status).toBe(200);
    expectImmutable(blob, id);
    expect(blob.headers['content-type']).toBe(answer.headers['content-type']);
    expect(Number(blob.headers['content-length'])).toBe(answer.body.byteLength);
    expect(blob.body.equals(answer.body)).toBe(true);

    const head = await get(`${host.url}/api/blobs/${id}`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(answer.body.byteLength);
    expect(head.body.byteLength).toBe(0);

    const part = await get(`${host.url}/api/blobs/${id}`, { range: 'bytes=3-17' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 3-17/${answer.body.byteLength}`);
    expect(part.body.equals(answer.body.subarray(3, 18))).toBe(true);
    const tail = await get(`${host.url}/api/blobs/${id}`, { range: 'bytes=-10' });
    expect(tail.body.equals(answer.body.subarray(-10))).toBe(true);
    const stale = await get(`${host.url}/api/blobs/${id}`, { range: 'bytes=3-17', 'if-range': '"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body.byteLength).toBe(answer.body.byteLength);

    const past = await get(`${host.url}/api/blobs/${id}`, { range: `bytes=${answer.body.byteLength}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${answer.body.byteLength}`);

    const held = await get(`${host.url}/api/blobs/${id}`, { 'if-none-match': `"${id}"` });
    expect(held.status).toBe(304);
    expect(held.body.byteLength).toBe(0);
    const again = await get(data('dyn-square', { room_id: room() }), { 'if-none-match': `"${id}"` });
    expect(again.status).toBe(304);
  });

  it('fixes Content-Encoding by the id: a gzip answer is a blob of its own, gzip for every client', async () => {
    const answer = await get(data('dyn-ramp', { params: JSON.stringify({ n: 24 }), room_id: room() }), { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    const id = answer.headers['x-blob-id'] as string;
    expect(id.startsWith(`${answer.headers['x-result-id']}.`)).toBe(true);
    const blob = await get(`${host.url}/api/blobs/${id}`, { 'accept-encoding': 'identity' });
    expectImmutable(blob, id);
    expect(blob.headers['content-encoding']).toBe('gzip');
    expect(blob.body.equals(answer.body)).toBe(true);
    const plain = await get(`${host.url}/api/blobs/${answer.headers['x-result-id'] as string}`);
    expect(gunzipSync(blob.body).equals(plain.body)).toBe(true);
  });

  it('answers a Range on an export (format=npy) with 206 and serves the download as a blob with its name', async () => {
    const query = { params: JSON.stringify({ n: 16 }), format: 'npy', room_id: room() };
    const whole = await get(data('dyn-ramp', query));
    expect(whole.status).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await get(data('dyn-ramp', query), { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${whole.body.byteLength}`);
    expect(part.body.toString('latin1')).toBe(whole.body.subarray(0, 10).toString('latin1'));
    const id = whole.headers['x-blob-id'] as string;
    const blob = await get(`${host.url}/api/blobs/${id}`);
    expectImmutable(blob, id);
    expect(blob.headers['content-disposition']).toBe('attachment; filename="dyn-ramp.npy"');
    expect(blob.body.equals(whole.body)).toBe(true);
  });

  it('names the JSON of /invoke and /result, and a point cloud\'s JSON by its result id', async () => {
    const invoked = await post(`${host.url}/api/processing/invoke`, { function_name: 'square', kwargs: { size: 2 }, room_id: room() });
    expect(invoked.status).toBe(200);
    const id = invoked.headers['x-blob-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{64}\./);
    const blob = await get(`${host.url}/api/blobs/${id}`);
    expect(blob.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(blob.body.equals(invoked.body)).toBe(true);

    const started = await post(`${host.url}/api/specimens/dyn-cloud/start`, { room_id: room() });
    const jobId = JSON.parse(started.body.toString()).job_id as string;
    await waitForJob(host.app, jobId);
    const result = await get(`${host.url}/api/jobs/${jobId}/result`);
    expect(result.headers['x-blob-id']).toBe(result.headers['x-result-id']);
    const cloud = await get(`${host.url}/api/blobs/${result.headers['x-blob-id'] as string}`);
    expect(cloud.body.equals(result.body)).toBe(true);
  });

  it('answers 404 with a readable detail for ids that name nothing held', async () => {
    const answer = await get(data('dyn-square', { room_id: room() }));
    const id = answer.headers['x-blob-id'] as string;
    const forged = `${id}.${Buffer.from(JSON.stringify(['glb', '', null, 'x'])).toString('base64url')}`;
    for (const bad of [
      'f'.repeat(64),
      'not-a-blob',
      `${id}.%%%`,
      `${id}.${Buffer.from('[1]').toString('base64url')}`,
      `${id}.${Buffer.from(JSON.stringify(['envelope', '', null, '']))}`,
    ]) {
      const res = await get(`${host.url}/api/blobs/${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(404);
      expect(JSON.parse(res.body.toString()).detail).toMatch(/no blob/);
    }
    // A download name is part of the id: a GLB under another name is another (valid) blob.
    expect((await get(`${host.url}/api/blobs/${forged}`)).status).toBe(200);
  });
});

describe('answers that change', () => {
  it('sends the catalog and a job status with no-cache and an ETag, and 304 when it still holds', async () => {
    const catalog = await get(`${host.url}/api/specimens`);
    expect(catalog.headers['cache-control']).toBe('no-cache');
    const etag = catalog.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const held = await get(`${host.url}/api/specimens`, { 'if-none-match': etag });
    expect(held.status).toBe(304);
    expect(held.body.byteLength).toBe(0);
    expect((await get(`${host.url}/api/specimens/`, { 'if-none-match': '"other"' })).status).toBe(200);

    const started = await post(`${host.url}/api/specimens/dyn-square/start`, { room_id: room() });
    const jobId = JSON.parse(started.body.toString()).job_id as string;
    await waitForJob(host.app, jobId);
    const status = await get(`${host.url}/api/jobs/${jobId}/progress`);
    expect(status.headers['cache-control']).toBe('no-cache');
    expect((await get(`${host.url}/api/jobs/${jobId}/progress`, { 'if-none-match': status.headers.etag as string })).status).toBe(304);
  });

  it('puts blob_id beside result_id on room events', async () => {
    const roomId = room();
    const answer = await get(data('dyn-square', { room_id: roomId }));
    const stream = await openStream(`${host.url}/api/rooms/${roomId}/events`);
    const state = await stream.next((e) => e.event === 'state');
    const entry = state.data as { result_id: string; blob_id: string };
    expect(entry.blob_id).toBe(answer.headers['x-blob-id']);
    expect(entry.blob_id).toBe(entry.result_id);
    stream.close();
  });
});

describe('behind a cache (accelRedirect)', () => {
  it('answers /data and /result with X-Accel-Redirect to the blob and no body', async () => {
    const front = await listenTestApp({ accelRedirect: '/_blobs/' });
    const answer = await get(`${front.url}/api/specimens/dyn-square/data?room_id=${room()}`);
    expect(answer.status).toBe(200);
    expect(answer.body.byteLength).toBe(0);
    const id = answer.headers['x-blob-id'] as string;
    expect(answer.headers['x-accel-redirect']).toBe(`/_blobs/${id}`);
    const blob = await get(`${front.url}/api/blobs/${id}`);
    expect(blob.status).toBe(200);
    expect(blob.body.byteLength).toBeGreaterThan(0);

    const started = await post(`${front.url}/api/specimens/dyn-square/start`, { room_id: room() });
    const jobId = JSON.parse(started.body.toString()).job_id as string;
    await waitForJob(front.app, jobId);
    const result = await get(`${front.url}/api/jobs/${jobId}/result`);
    expect(result.status).toBe(200);
    expect(result.body.byteLength).toBe(0);
    expect(result.headers['x-accel-redirect']).toBe(`/_blobs/${result.headers['x-blob-id'] as string}`);
    const json = await get(`${front.url}/api/blobs/${result.headers['x-blob-id'] as string}`);
    expect(JSON.parse(json.body.toString()).type).toBe('mesh');
  });
});
