/**
 * @module reload.bench
 * `npm run bench reload`: a plugin of 1 MB reloaded RELOADS times (default 500) into a running
 * host, as the dev loop does after each build: a new bundle written with its manifest (a new
 * version and file hash, so a new bundle id each time), `GET /api/specimens/reload`, then one
 * call per compute thread so each imports the new code. An ES module cannot be unloaded, so a
 * thread that kept every version would grow by a megabyte of parsed code per reload; the host
 * retires its compute threads every few reloads instead. After every reload each thread
 * reports its own V8 heap after a full collection (the plugin's function reads it; the
 * largest is the figure), and every SAMPLE_EVERY reloads the host's main-thread heap is read
 * from `/metrics`. The bound: each thread's heap
 * within 50 MB of where the threads started, the main heap likewise.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';

const RELOADS = Number(process.env.RELOAD_ROUNDS ?? 500);
const SAMPLE_EVERY = 50;
const THREADS = 2;
/** Numbers in the bundle's table: about 1 MB of source. */
const TABLE_NUMBERS = 60_000;
const BOUND_MB = 50;

/** The plugin's code, version `n`: a 1 MB table and a function reporting its thread's heap. */
function bundle(n: number): string {
  const table = Array.from({ length: TABLE_NUMBERS }, (_, i) => ((i * 7919 + n) % 100_000) / 7).join(',');
  return `import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { threadId } from 'node:worker_threads';
const VERSION = ${n};
const TABLE = [${table}];
let collect = null;
/** This thread's id, its V8 heap in use after a full collection (MiB), and the version that answered. */
export async function heap(nonce, wait_ms) {
  await new Promise((resolve) => setTimeout(resolve, wait_ms));
  if (!collect) { setFlagsFromString('--expose-gc'); collect = runInNewContext('gc'); }
  collect();
  const used = getHeapStatistics().used_heap_size / 1048576;
  return { points: new Float32Array([threadId, used, VERSION + TABLE.length * 0]) };
}
`;
}

function manifest(n: number, code: string): string {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: { nonce: { type: 'integer', default: 0 }, wait_ms: { type: 'integer', default: 0 } },
  };
  return JSON.stringify({
    $comment: 'written by the reload benchmark',
    manifest_version: 1,
    plugin: 'heavy',
    version: `1.0.${n}`,
    bundle: 'index.mjs',
    files: { 'index.mjs': createHash('sha256').update(code).digest('hex') },
    functions: [
      {
        name: 'heap',
        return_type: 'point_cloud',
        async: true,
        parameters: [
          { name: 'nonce', kind: 'value' },
          { name: 'wait_ms', kind: 'value' },
        ],
        reporter_parameter: null,
        signal_parameter: null,
        schema,
        source: { file: 'index.ts', line: 1 },
      },
    ],
    specimens: [],
  });
}

function writeVersion(dir: string, n: number): number {
  const code = bundle(n);
  writeFileSync(path.join(dir, 'heavy', 'index.mjs'), code);
  writeFileSync(path.join(dir, 'heavy', 'manifest.json'), manifest(n, code));
  return code.length;
}

interface ThreadHeap {
  thread: number;
  heapMiB: number;
  version: number;
}

async function callHeap(host: RunningHost, nonce: number, waitMs: number): Promise<ThreadHeap> {
  const res = await fetch(`${host.url}/api/processing/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ function_name: 'heap', params: { nonce, wait_ms: waitMs }, room_id: `bench-${nonce % THREADS}` }),
  });
  if (res.status !== 200) throw new Error(`invoke answered ${res.status}: ${await res.text()}`);
  const { points } = (await res.json()) as { points: number[] };
  return { thread: points[0]!, heapMiB: points[1]!, version: points[2]! };
}

/** One call per compute thread at once (each waits, so the pool hands them to different threads). */
async function everyThread(host: RunningHost, nonce: number, waitMs: number): Promise<ThreadHeap[]> {
  return Promise.all(Array.from({ length: THREADS }, (_, i) => callHeap(host, nonce * THREADS + i, waitMs)));
}

async function mainHeapMiB(host: RunningHost): Promise<number> {
  const text = await (await fetch(`${host.url}/metrics`)).text();
  const line = /^vitrine_process_nodejs_heap_size_used_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text);
  return line ? Number(line[1]) / 1048576 : NaN;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-reload-'));
  mkdirSync(path.join(dir, 'heavy'));
  const bytes = writeVersion(dir, 0);
  const host = await spawnHost(['--port', '0', '--plugins', dir, '--specimens', 'none', '--pool-size', String(THREADS), '--log-level', 'error']);
  const lines: string[] = [`a ${fmt(bytes / 1e6)} MB bundle, ${RELOADS} reloads, ${THREADS} compute threads`];
  try {
    const start = await everyThread(host, 0, 60);
    const startMax = Math.max(...start.map((t) => t.heapMiB));
    const startMain = await mainHeapMiB(host);
    lines.push(`start: threads ${start.map((t) => `#${t.thread} ${fmt(t.heapMiB, 1)} MiB`).join(', ')}; main thread ${fmt(startMain, 1)} MiB`);
    let worstThread = 0;
    let worstMain = 0;
    let failures = 0;
    const started = performance.now();
    for (let n = 1; n <= RELOADS; n++) {
      writeVersion(dir, n);
      const reload = await fetch(`${host.url}/api/specimens/reload`);
      if (reload.status !== 200) failures++;
      const seen = await everyThread(host, n, 60);
      if (seen.some((t) => t.version !== n)) failures++;
      worstThread = Math.max(worstThread, ...seen.map((t) => t.heapMiB - startMax));
      if (n % SAMPLE_EVERY !== 0) continue;
      const main = await mainHeapMiB(host);
      worstMain = Math.max(worstMain, main - startMain);
      lines.push(
        `after ${String(n).padStart(3)}: threads ${seen.map((t) => `#${t.thread} ${fmt(t.heapMiB, 1)} MiB`).join(', ')}; main ${fmt(main, 1)} MiB`,
      );
    }
    const seconds = (performance.now() - started) / 1000;
    const each = fmt((seconds * 1000) / RELOADS, 0);
    lines.push(`${RELOADS} reloads in ${fmt(seconds, 1)} s (${each} ms each with its calls); calls failed or answered an old version: ${failures}`);
    const held = worstThread <= BOUND_MB && worstMain <= BOUND_MB;
    lines.push(
      `largest growth over the start: a compute thread +${fmt(worstThread, 1)} MiB, the main thread +${fmt(worstMain, 1)} MiB ` +
        `(bound ${BOUND_MB} MB): ${held ? 'within' : 'OVER'}`,
    );
  } finally {
    await host.stop();
  }
  return { name: `${RELOADS} reloads of a 1 MB plugin: heap per thread`, lines };
}
