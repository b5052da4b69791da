/**
 * A real nginx (Debian's, run with docs/nginx.conf) in front of a real host started with
 * `--accel-redirect /_blobs/`: `/data` does its room work, hands the bytes over, and nginx
 * serves them from its cache. Many clients asking at once cause one fill from the host (one
 * MISS in nginx's `$upstream_cache_status` log, the rest HIT); every client gets 200, the same
 * bytes and a matching Content-Length, the Godot client included; ranges of exports are 206;
 * a gzip blob stays gzip; blob URLs are cached as they are.
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
});
