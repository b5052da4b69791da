/**
 * @module delivery-across-hosts.test
 * Every delivery of one entry with the same options is the same bytes on every host of a
 * Redis service: two front-end hosts each make their own compressed (and shaped) variants of
 * a room entry computed once on the worker, and they agree byte for byte.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { room, startService } from './service.ts';

let a: RunningHost;
let b: RunningHost;

beforeAll(async () => {
  const service = await startService();
  await mkdir(join(service.specimens, 'ramp'));
  await writeFile(join(service.specimens, 'ramp', 'specimen.json'), JSON.stringify({ display_name: 'ramp', type: 'volume', function_name: 'ramp' }));
  [a, b] = await Promise.all([service.host(), service.host()]);
  await service.worker();
});

/** The raw (still compressed) answer: fetch() would decompress it. */
function raw(
  url: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; encoding: string | undefined; length: string | undefined; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      { method: payload ? 'POST' : 'GET', headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            length: res.headers['content-length'],
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('deliveries on a Redis service', () => {
  it('are the same bytes on every host, compressed and shaped alike', async () => {
    const roomId = room();
    const params = encodeURIComponent(JSON.stringify({ n: 24 }));
    const cases: [string, Record<string, string>][] = [
      [`/api/specimens/ramp/data?params=${params}&room_id=${roomId}`, { 'accept-encoding': 'gzip' }],
      [`/api/specimens/ramp/data?params=${params}&room_id=${roomId}`, { 'accept-encoding': 'br' }],
      [`/api/specimens/ramp/data?params=${params}&room_id=${roomId}&dtype=uint8&max_dim=8`, { 'accept-encoding': 'gzip' }],
      [`/api/specimens/ramp/data?params=${params}&room_id=${roomId}`, { 'accept-encoding': 'gzip', 'user-agent': 'GodotEngine/4.3' }],
    ];
    for (const [path, headers] of cases) {
      const [fromA, fromB] = await Promise.all([raw(`${a.url}${path}`, headers), raw(`${b.url}${path}`, headers)]);
      expect(fromA.status).toBe(200);
      expect(fromA.encoding).toBe(headers['accept-encoding']);
      expect(Number(fromA.length)).toBe(fromA.bytes.length);
      expect(fromB.encoding).toBe(fromA.encoding);
      expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    }
    const body = { function_name: 'ramp', kwargs: { n: 24 }, room_id: roomId };
    const [invokedA, invokedB] = await Promise.all([
      raw(`${a.url}/api/processing/invoke`, { 'accept-encoding': 'gzip' }, body),
      raw(`${b.url}/api/processing/invoke`, { 'accept-encoding': 'gzip' }, body),
    ]);
    expect(invokedA.encoding).toBe('gzip');
    expect(invokedB.bytes.equals(invokedA.bytes)).toBe(true);
  });
});
