/**
 * @module inputs.bench
 * Inputs and uploads (`npm run bench inputs`):
 * 1. the added cost of resolving a cached input: checking an input value and loading it from
 *    the room cache, against the input's own room-cache hit (target: under 1 ms more), for a
 *    dynamic specimen, a static file and an upload;
 * 2. upload throughput on loopback: a 32 MiB `.npy` and a 100k-triangle binary STL posted to a
 *    host in its own process, parsed and stored (target ≥ 200 MB/s), best of 5, each upload's
 *    bytes distinct so none is answered from an earlier one, against a plain read-and-hash
 *    server in the same run. The machine's load average is printed with the figures: on a
 *    shared machine they are a floor, not the host's speed. So the servers' CPU time per
 *    upload (from /proc) is printed too, which other processes do not inflate; and the plain
 *    server once more under the host's allocator setting, which makes every fresh block of
 *    64 KiB or more (each socket read among them) a mapping of its own.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { createApp } from '../../core/app.ts';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { checkInputs } from '../../core/inputs/check-inputs.ts';
import { loadInputs } from '../../core/inputs/load-inputs.ts';
import { computeResult } from '../../core/serving/result-source.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { makeSpecimensDir, npyBytes } from '../helpers/specimens-dir.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { fmt, startScriptServer } from './host-helpers.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';

const ROUNDS = Number(process.env.INPUTS_BENCH_ROUNDS ?? 500);

async function perOp(work: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await work();
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await work();
  return (performance.now() - started) / ROUNDS;
}

async function resolutionCost(lines: string[]): Promise<void> {
  const app = await createApp({ pluginsDir: await inputPluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 1, viewer: false });
  try {
    const ctx = hostContextOf(app);
    const measure = ctx.functions.get('count_mesh')!;
    const square = ctx.functions.get('square')!;
    const roomId = 'bench';
    const squareValues = { size: 1, label: 'a', flag: false, note: '' };
    await computeResult(ctx.results, { entry: square, values: squareValues, roomId, specimenId: null });
    const upload = await app.inject({
      method: 'POST',
      url: '/api/uploads?filename=cube.stl',
      headers: { 'content-type': 'application/octet-stream' },
      payload: binaryStl(),
    });
    const uploadId = (upload.json() as { upload_id: string }).upload_id;
    // square is the fixture's dynamic specimen dyn-square's function: its hit is the baseline.
    const hit = await perOp(() => ctx.results.lookup({ entry: square, values: squareValues, roomId }));
    const signal = new AbortController().signal;
    const resolve = (value: unknown) => async () => {
      const checked = await checkInputs(ctx, measure, measure.schema, { mesh: value });
      return loadInputs(checked.values, checked.inputs!, { roomId, signal });
    };
    const dynamic = await perOp(resolve({ specimen: 'dyn-square', params: { size: 1 } }));
    const file = await perOp(resolve({ specimen: 'tri' }));
    const uploaded = await perOp(resolve({ upload: uploadId }));
    lines.push(`room-cache hit of the input itself: ${fmt(hit * 1000, 1)} µs per lookup (${ROUNDS} rounds)`);
    lines.push(
      `resolving a cached dynamic input (check + load from the room): ${fmt(dynamic * 1000, 1)} µs, ${fmt((dynamic - hit) * 1000, 1)} µs beyond its own ` +
      `hit (target < 1000 µs)`,
    );
    lines.push(`resolving a static file input (parsed once, kept): ${fmt(file * 1000, 1)} µs; an upload input: ${fmt(uploaded * 1000, 1)} µs`);
  } finally {
    await app.close();
  }
}

/** A float32 .npy of `megabytes` whose first sample is `seed` (distinct bytes, distinct ids). */
function bigNpy(megabytes: number, seed: number): Buffer {
  const side = Math.round(Math.cbrt((megabytes * 1024 * 1024) / 4));
  const bytes = npyBytes([side, side, side]);
  bytes.writeFloatLE(seed, bytes.length - side * side * side * 4);
  return bytes;
}

function bigStl(triangles: number, seed: number): Buffer {
  const soup = Array.from({ length: triangles }, (_, i) => {
    const x = i % 1000;
    const y = Math.floor(i / 1000);
    return [x, y, seed, x + 1, y, seed, x, y + 1, seed];
  });
  return binaryStl(soup);
}

/** CPU time (user + system, every thread) process `pid` has used, in seconds; null without /proc. */
function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * A plain node:http server in its own process that reads a body and hashes it (sha256), the
 * least any content-addressed store does: the baseline of the same run, so a figure taken on
 * a busy shared machine still says how near the upload route comes to the floor. `env` adds
 * to its environment (the host's allocator setting, to see what that setting costs alone).
 */
function startBaseline(env: Record<string, string> = {}): Promise<{ url: string; pid: number; stop: () => void }> {
  const script = `const http=require('node:http');const {createHash}=require('node:crypto');const s=http.createServer((q,r)=>{const ` +
    `h=createHash('sha256');const c=[];q.on('data',d=>{h.update(d);c.push(d)});q.on('end',()=>{const ` +
    `b=Buffer.concat(c);r.end(JSON.stringify({bytes:b.length,id:h.digest('hex')}))})});s.listen(0,'127.0.0.1',()=>console.log('listening on ` +
    `http://127.0.0.1:'+s.address().port))`;
  return startScriptServer(script, [], { env: { ...process.env, ...env } });
}

interface Target {
  url: string;
  pid: number;
}

/** One upload to `target`: its rate (bytes per second of wall time) and the CPU seconds it cost the server. */
async function post(target: Target, name: string, body: Buffer): Promise<{ rate: number; cpu: number | null }> {
  const cpuBefore = cpuSeconds(target.pid);
  const started = performance.now();
  const res = await fetch(`${target.url}/api/uploads?filename=${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(body),
  });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  const rate = body.length / ((performance.now() - started) / 1000);
  const cpuAfter = cpuSeconds(target.pid);
  return { rate, cpu: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

/** Bytes per CPU second over all uploads (null without /proc). */
function perCpuSecond(bytes: number, cpus: (number | null)[]): number | null {
  if (cpus.some((c) => c === null)) return null;
  const total = (cpus as number[]).reduce((a, b) => a + b, 0);
  return total > 0 ? bytes / total : null;
}

const ROUNDS_PER_FORMAT = Number(process.env.UPLOAD_BENCH_ROUNDS ?? 5);

async function uploadThroughput(lines: string[]): Promise<void> {
  const [bare, bareAllocator] = await Promise.all([startBaseline(), startBaseline(ALLOCATOR_ENV)]);
  const host = await spawnHost([
    '--port',
    '0',
    '--no-viewer',
    '--log-level',
    'warn',
    '--pool-size',
    '1',
    '--plugins',
    'none',
    '--specimens',
    'none',
    '--upload-ttl',
    '60',
  ]);
  const targets = { host: { url: host.url, pid: host.child.pid! }, bare, bareAllocator };
  try {
    for (const [label, name, make] of [
      ['32 MiB float32 .npy (203³)', 'volume.npy', (i: number) => bigNpy(32, i)],
      ['100k-triangle binary STL (4.8 MiB, welded)', 'mesh.stl', (i: number) => bigStl(100_000, i)],
    ] as const) {
      const seen = {
        host: { rates: [] as number[], cpus: [] as (number | null)[] },
        bare: { rates: [] as number[], cpus: [] as (number | null)[] },
        bareAllocator: { rates: [] as number[], cpus: [] as (number | null)[] },
      };
      // One upload each first, not counted: the servers' code is compiled by then.
      for (const key of ['host', 'bare', 'bareAllocator'] as const) await post(targets[key], name, make(ROUNDS_PER_FORMAT + 1));
      let bytes = 0;
      for (let i = 0; i < ROUNDS_PER_FORMAT; i++) {
        const body = make(i);
        bytes += body.length;
        for (const key of ['host', 'bare', 'bareAllocator'] as const) {
          const { rate, cpu } = await post(targets[key], name, body);
          seen[key].rates.push(rate);
          seen[key].cpus.push(cpu);
        }
      }
      const best = (key: keyof typeof seen) => Math.max(...seen[key].rates);
      const mbs = (n: number | null) => (n === null ? 'n/a' : `${fmt(n / 1e6, 0)} MB/s`);
      lines.push(
        `upload of a ${label}: ${mbs(best('host'))} parsed and stored; a plain node:http server reading and hashing the same body ${mbs(best('bare'))}: ` +
        `ratio ${fmt(best('host') / best('bare'))} ` +
          `(best of ${ROUNDS_PER_FORMAT} each, alternating; target >= 200 MB/s)`,
      );
      lines.push(
        `  per CPU second of the server process (load-independent): host ${mbs(perCpuSecond(bytes, seen.host.cpus))}, plain server ` +
        `${mbs(perCpuSecond(bytes, seen.bare.cpus))}, ` +
          `plain server under the host's allocator setting (MALLOC_MMAP_THRESHOLD_=${ALLOCATOR_ENV.MALLOC_MMAP_THRESHOLD_}) ` +
          `${mbs(perCpuSecond(bytes, seen.bareAllocator.cpus))} (wall best ${mbs(best('bareAllocator'))})`,
      );
    }
  } finally {
    await host.stop();
    bare.stop();
    bareAllocator.stop();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  await resolutionCost(lines);
  await uploadThroughput(lines);
  lines.push(`(load average while measuring: ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`);
  return { name: 'inputs and uploads', lines };
}
