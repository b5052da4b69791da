/**
 * @module inputs.bench
 * Inputs and uploads (`npm run bench inputs`):
 * 1. the added cost of resolving a cached input: checking an input value and loading it from
 *    the room cache, against the input's own room-cache hit (target: under 1 ms more), for a
 *    dynamic specimen, a static file and an upload;
 * 2. upload throughput on loopback: a 32 MiB `.npy` and a 100k-triangle binary STL posted to a
 *    host in its own process, parsed and stored (target ≥ 200 MB/s), best of 3, each upload's
 *    bytes distinct so none is answered from an earlier one. The machine's load average is
 *    printed with the figures: on a shared machine they are a floor, not the host's speed.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { createApp } from '../../core/app.ts';
import { checkInputs } from '../../core/inputs/check-inputs.ts';
import { loadInputs } from '../../core/inputs/load-inputs.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { makeSpecimensDir, npyBytes } from '../helpers/specimens-dir.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { fmt } from './host-helpers.ts';

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
    const ctx = app.vitrine.context;
    const measure = ctx.functions.get('count_mesh')!;
    const square = ctx.functions.get('square')!;
    const roomId = 'bench';
    const squareValues = { size: 1, label: 'a', flag: false, note: '' };
    await ctx.results.compute({ entry: square, values: squareValues, roomId, specimenId: null });
    const upload = await app.inject({ method: 'POST', url: '/api/uploads?filename=cube.stl', headers: { 'content-type': 'application/octet-stream' }, payload: binaryStl() });
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
    lines.push(`resolving a cached dynamic input (check + load from the room): ${fmt(dynamic * 1000, 1)} µs, ${fmt((dynamic - hit) * 1000, 1)} µs beyond its own hit (target < 1000 µs)`);
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

/**
 * A plain node:http server in its own process that reads a body and hashes it (sha256), the
 * least any content-addressed store does: the baseline of the same run, so a figure taken on
 * a busy shared machine still says how near the upload route comes to the floor.
 */
function startBaseline(): Promise<{ url: string; stop: () => void }> {
  const script = `const http=require('node:http');const {createHash}=require('node:crypto');const s=http.createServer((q,r)=>{const h=createHash('sha256');const c=[];q.on('data',d=>{h.update(d);c.push(d)});q.on('end',()=>{const b=Buffer.concat(c);r.end(JSON.stringify({bytes:b.length,id:h.digest('hex')}))})});s.listen(0,'127.0.0.1',()=>console.log('listening on http://127.0.0.1:'+s.address().port))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve({ url: m[1]!, stop: () => child.kill('SIGKILL') });
    });
    child.once('exit', (code) => reject(new Error(`baseline exited ${code}`)));
  });
}

async function uploadThroughput(lines: string[]): Promise<void> {
  const baseline = await startBaseline();
  const host = await spawnHost(['--port', '0', '--no-viewer', '--log-level', 'warn', '--pool-size', '1', '--plugins', 'none', '--specimens', 'none', '--upload-ttl', '60']);
  try {
    const post = async (name: string, body: Buffer, base = host.url): Promise<number> => {
      const started = performance.now();
      const res = await fetch(`${base}/api/uploads?filename=${name}`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(body) });
      if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return body.length / ((performance.now() - started) / 1000);
    };
    for (const [label, name, make] of [
      ['32 MiB float32 .npy (203³)', 'volume.npy', (i: number) => bigNpy(32, i)],
      ['100k-triangle binary STL (4.8 MiB, welded)', 'mesh.stl', (i: number) => bigStl(100_000, i)],
    ] as const) {
      const rates: number[] = [];
      const plain: number[] = [];
      for (let i = 0; i < 3; i++) {
        const body = make(i);
        rates.push(await post(name, body));
        plain.push(await post(name, body, baseline.url));
      }
      const best = Math.max(...rates);
      const floor = Math.max(...plain);
      lines.push(`upload of a ${label}: ${fmt(best / 1e6, 0)} MB/s parsed and stored; a plain node:http server reading and hashing the same body ${fmt(floor / 1e6, 0)} MB/s: ratio ${fmt(best / floor)} (best of 3 each, alternating; target >= 200 MB/s)`);
    }
  } finally {
    await host.stop();
    baseline.stop();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  await resolutionCost(lines);
  await uploadThroughput(lines);
  lines.push(`(load average while measuring: ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores)`);
  return { name: 'inputs and uploads', lines };
}
