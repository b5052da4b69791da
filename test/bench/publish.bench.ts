/**
 * @module publish.bench
 * `npm run bench publish`: publishing a 256×256×128 uint16 volume (16 MiB, the size of a
 * segmented CT from a notebook) as a specimen, and a Godot client's first read of it (a uint8
 * envelope, at most 256 a side). On a lone host, and on a Redis service of two hosts in one
 * process: published on A, listed and read on B (B copies the file from Redis on its first
 * catalog request). Three rounds each, each a new file; medians and worst.
 */
import { createApp } from '../../core/app.ts';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { fmt, percentile } from './host-helpers.ts';

const SHAPE = [128, 256, 256];
const ROUNDS = 3;
const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };

/** A uint16 `.npy` of SHAPE whose values depend on `seed` (a new file each round). */
function volume(seed: number): Buffer {
  let header = `{'descr': '<u2', 'fortran_order': False, 'shape': (${SHAPE.join(', ')}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prelude = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  const count = SHAPE.reduce((a, b) => a * b, 1);
  const data = new Uint16Array(count);
  for (let i = 0; i < count; i++) data[i] = (i * 31 + seed * 977) & 0xfff;
  return Buffer.concat([prelude, Buffer.from(header, 'latin1'), Buffer.from(data.buffer)]);
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

async function round(publishUrl: string, readUrl: string, id: string, seed: number): Promise<{ put: number; list: number; read: number }> {
  const body = new Uint8Array(volume(seed));
  const [put, res] = await timed(() =>
    fetch(`${publishUrl}/api/specimens/${id}?filename=${id}.npy`, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body }),
  );
  if (res.status !== 201) throw new Error(`PUT answered ${res.status}: ${await res.text()}`);
  const [list, listed] = await timed(async () => (await (await fetch(`${readUrl}/api/specimens`)).json()) as { id: string }[]);
  if (!listed.some((entry) => entry.id === id)) throw new Error(`${id} is not listed on the reading host`);
  const [read, envelope] = await timed(async () =>
    decodeEnvelope(new Uint8Array(await (await fetch(`${readUrl}/api/specimens/${id}/data`, { headers: GODOT })).arrayBuffer())),
  );
  if (envelope.type !== 'volume' || envelope.dtype !== 'uint8') throw new Error('the Godot read is not a uint8 volume');
  return { put, list, read };
}

function report(label: string, rounds: { put: number; list: number; read: number }[]): string[] {
  const line = (what: string, values: number[]) => `  ${what}: median ${fmt(percentile(values, 50), 0)} ms, worst ${fmt(Math.max(...values), 0)} ms`;
  return [
    `${label}:`,
    line(
      'PUT (16 MiB)',
      rounds.map((r) => r.put),
    ),
    line(
      'catalog listing on the reading host',
      rounds.map((r) => r.list),
    ),
    line(
      'Godot /data (uint8 envelope)',
      rounds.map((r) => r.read),
    ),
  ];
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [`volume ${SHAPE.join('×')} uint16, ${ROUNDS} rounds each`];
  const options = { specimensDir: null, pluginsDir: null, logLevel: false as const, poolSize: 1, viewer: false };
  const lone = await createApp(options);
  const loneUrl = await lone.listen({ host: '127.0.0.1', port: 0 });
  const loneRounds = [];
  for (let i = 0; i < ROUNDS; i++) loneRounds.push(await round(loneUrl, loneUrl, `lone-${i}`, i));
  await lone.close();
  lines.push(...report('one host', loneRounds));

  const redis = await startRedis();
  const [a, b] = await Promise.all([createApp({ ...options, redis: redis.url, compute: 0 }), createApp({ ...options, redis: redis.url, compute: 0 })]);
  const [aUrl, bUrl] = await Promise.all([a.listen({ host: '127.0.0.1', port: 0 }), b.listen({ host: '127.0.0.1', port: 0 })]);
  const serviceRounds = [];
  for (let i = 0; i < ROUNDS; i++) serviceRounds.push(await round(aUrl, bUrl, `shared-${i}`, i + 10));
  await Promise.all([a.close(), b.close()]);
  await redis.stop();
  lines.push(...report('Redis service, published on A, read on B', serviceRounds));
  return { name: 'publishing a volume', lines };
}
