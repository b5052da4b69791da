/**
 * A real nginx (Debian's, run with docs/nginx.conf) in front of a real host started with
 * `--accel-redirect /_blobs/`: `/data` does its room work, hands the bytes over, and nginx
 * serves them from its cache. Many clients asking at once cause one fill from the host (one
 * MISS in nginx's `$upstream_cache_status` log, the rest HIT); every client gets 200, the same
 * bytes and a matching Content-Length, the Godot client included; ranges of exports are 206;
 * a gzip blob stays gzip; blob URLs are cached as they are; every header a client reads from an
 * answer that handed its bytes to nginx (result id, provenance, mesh levels, file name) reaches
 * the client as the host sent it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startNginx, type NginxServer } from '../helpers/nginx-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET whose answer is taken as sent (nothing decompressed). */
function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'identity', ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

let host: RunningHost;
let nginx: NginxServer;
let rooms = 0;
const room = () => `nginx-${process.pid}-${++rooms}`;

beforeAll(async () => {
  const specimens = await makeSpecimensDir();
  // A volume worth compressing.
  await mkdir(join(specimens, 'dyn-ramp'));
  await writeFile(join(specimens, 'dyn-ramp', 'specimen.json'), JSON.stringify({ display_name: 'Ramp', type: 'volume', function_name: 'ramp' }));
  host = await spawnHost([
    '--port',
    '0',
    '--plugins',
    await fixturePluginsDir(),
    '--specimens',
    specimens,
    '--accel-redirect',
    '/_blobs/',
    // Every mesh has levels of detail, so /data answers say where they are.
    '--mesh-lod-triangles',
    '1',
    '--log-level',
    'warn',
  ]);
  nginx = await startNginx([host.port]);
});
afterAll(async () => {
  await nginx?.stop();
  await host?.stop();
});

describe('behind nginx', () => {
  it('gives 30 clients asking at once the same bytes and Content-Length from one fill', async () => {
    const r = room();
    const url = `${nginx.url}/api/specimens/dyn-square/data?room_id=${r}`;
    const answers = await Promise.all(Array.from({ length: 30 }, () => get(url)));
    const first = answers[0]!;
    expect(first.body.byteLength).toBeGreaterThan(0);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(Number(a.headers['content-length'])).toBe(a.body.byteLength);
      expect(a.body.equals(first.body)).toBe(true);
    }
    const id = first.headers['x-blob-id'] as string;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const direct = await get(`${host.url}/api/blobs/${id}`);
    expect(direct.body.equals(first.body)).toBe(true);
    const log = (await nginx.accessLog()).filter((line) => line.request.includes(r));
    expect(log).toHaveLength(30);
    expect(log.filter((line) => line.cache === 'MISS')).toHaveLength(1);
    expect(log.filter((line) => line.cache === 'HIT')).toHaveLength(29);
  });

  it('serves the Godot client the same bytes and Content-Length on every /data', async () => {
    const r = room();
    const url = `${nginx.url}/api/specimens/dyn-square/data?room_id=${r}`;
    const godot = { 'user-agent': 'GodotEngine/4.3.stable (Linux)' };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await get(url, godot));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(Number(a.headers['content-length'])).toBe(a.body.byteLength);
      expect(a.body.equals(answers[0]!.body)).toBe(true);
    }
  });

  it('answers a range of an export with 206 from the cache, and a gzip blob as gzip', async () => {
    const r = room();
    const npy = `${nginx.url}/api/specimens/dyn-square/data?format=stl&room_id=${r}`;
    const whole = await get(npy);
    expect(whole.status).toBe(200);
    const part = await get(npy, { range: 'bytes=10-49' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-49/${whole.body.byteLength}`);
    expect(part.body.equals(whole.body.subarray(10, 50))).toBe(true);

    const url = `${nginx.url}/api/specimens/dyn-ramp/data?params=${encodeURIComponent(JSON.stringify({ n: 32, scale: 0 }))}&room_id=${r}`;
    const zipped = await get(url, { 'accept-encoding': 'gzip' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The answer keeps the no-cache of /data; the blob's own caching stays between nginx and the host.
    expect(zipped.headers['cache-control']).toBe('no-cache');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
  });

  it('caches blob URLs as they are: immutable, one fill, the same bytes', async () => {
    const first = await get(`${nginx.url}/api/specimens/dyn-square/data?room_id=${room()}`);
    const id = first.headers['x-blob-id'] as string;
    const a = await get(`${nginx.url}/api/blobs/${id}`);
    const b = await get(`${nginx.url}/api/blobs/${id}`);
    expect(a.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(a.body.equals(first.body) && b.body.equals(first.body)).toBe(true);
    expect(b.headers['x-cache-status']).toBe('HIT');
  });

  it('passes on every header a client reads from an answer that carried X-Accel-Redirect', async () => {
    const r = room();
    for (const path of [`/api/specimens/dyn-square/data?room_id=${r}`, `/api/specimens/dyn-square/data?format=stl&room_id=${r}`]) {
      // Asked of the host itself, the answer carries the headers and hands its bytes to nginx.
      const direct = await get(`${host.url}${path}`);
      expect(direct.headers['x-accel-redirect']).toMatch(/^\/_blobs\/[0-9a-f]{64}/);
      const through = await get(`${nginx.url}${path}`);
      expect(through.status).toBe(200);
      const read = ['x-result-id', 'vitrine-provenance', 'vitrine-mesh-levels', 'x-blob-id', 'content-type'];
      if (path.includes('format=stl')) read.push('content-disposition');
      for (const name of read) {
        expect(direct.headers[name], name).toBeTruthy();
        expect(through.headers[name], name).toBe(direct.headers[name]);
      }
      expect(through.headers['x-result-id']).toMatch(/^[0-9a-f]{64}$/);
      expect(through.headers['vitrine-provenance']).toMatch(/^host-fixtures@\S+; bundle=[0-9a-f]{12}$/);
      // The levels it names are there through nginx too.
      const levels = await get(`${nginx.url}${through.headers['vitrine-mesh-levels'] as string}1/0`);
      expect(levels.status).toBe(200);
      expect(levels.body.byteLength).toBeGreaterThan(0);
    }
    // A result without levels gets no such header (nginx sends no empty one).
    const ramp = await get(`${nginx.url}/api/specimens/dyn-ramp/data?room_id=${r}`);
    expect(ramp.headers['x-result-id']).toMatch(/^[0-9a-f]{64}$/);
    expect(ramp.headers['vitrine-mesh-levels']).toBeUndefined();
    expect(ramp.headers['content-disposition']).toBeUndefined();
  });

  it('passes on the headers of answers that carry their own bytes: a snapshot and its time taken', async () => {
    const r = room();
    await get(`${nginx.url}/api/specimens/dyn-square/data?room_id=${r}`);
    const created = await new Promise<{ id: string }>((resolve, reject) => {
      const req = http.request(`${nginx.url}/api/rooms/${r}/snapshots`, { method: 'POST', agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(text) as { id: string }) : reject(new Error(`${res.statusCode}: ${text}`))));
      });
      req.on('error', reject);
      req.end();
    });
    const direct = await get(`${host.url}/api/snapshots/${created.id}`);
    const through = await get(`${nginx.url}/api/snapshots/${created.id}`);
    for (const name of ['x-snapshot-created', 'last-modified', 'etag']) {
      expect(direct.headers[name], name).toBeTruthy();
      expect(through.headers[name], name).toBe(direct.headers[name]);
    }
  });
});
