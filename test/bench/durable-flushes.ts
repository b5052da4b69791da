/**
 * @module durable-flushes
 * Section 1 of `npm run bench durable`: what one acknowledged annotation write costs a host with
 * a data folder. Single-mark adds one after another, on a host with a data folder and on one
 * with `--data-dir none` in turn, and with them one lmdb-js put and its flushed commit made by
 * this process (flush-bound.ts's `commit`), the three in a turn in a rotating order so all see
 * the same load: latency p50/p99, and the bound, the disk host's p99 against the memory host's
 * plus that commit's. The commit is sampled in the turns because that is where the hosts are:
 * a flushed lmdb-js commit hands the write to lmdb-js's write thread and back, and a thread
 * woken from sleep after another process's turn waits for a core far more often than one in a
 * tight loop (the same put: p99 about 0.5 ms in a loop of its own, 3.5-4.6 ms in the turns).
 * Then the floor under them, as many samples on the same disk once the adds are done
 * (flush-bound.ts: one flush, lmdb-js alone, the data store alone, a hop to a pool thread), read
 * as a second line against the memory host plus the loop's commit. The whole floor stays out of
 * the turns: its seven flushes a turn slowed the disk host and itself. Then the disk flushes each write takes, counted from
 * outside by `strace -f -c -w -e trace=fsync,fdatasync,msync,sync_file_range` attached to the host
 * while FLUSHED_ADDS adds run one after another (a change and its room's log entry are one
 * transaction, so one flush a write); where strace is missing or may not attach, the line says so.
 * DURABLE_CLI names another checkout's `vitrine` command (its core/cli/vitrine.mjs, or its
 * compiled bin.js) to measure in its place: the figures before and after a change, in one session.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { openFlushBound, type FlushSample } from './flush-bound.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins, fmt, percentile } from './host-helpers.ts';

// A p99 of 500 is the fifth-slowest add: between runs of one build it moved by ±2 ms, more
// than the gap it is read against. Of 2,000 it still moved by 2.4 ms between runs of one build;
// of 5,000 on each host (about 15 s), by 1.35 ms over ten runs: read a few runs, not one.
const SINGLE_ADDS = 5000;
const FLUSHED_ADDS = 100;
const FLUSH_CALLS = 'fsync,fdatasync,msync,sync_file_range';

/** Adds one point mark at (x, y, 0) to `room`; resolves with the milliseconds until its answer was read. */
export async function addOne(url: string, x: number, room = 'bench', y = 0): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${url}/api/rooms/${room}/annotations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ kind: 'point', points: [[x, y, 0]] }),
  });
  if (res.status !== 201) throw new Error(`add answered ${res.status}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

/** What strace's `-c` table totals: the flush calls and the seconds spent in them. */
interface Flushes {
  calls: number;
  seconds: number;
}

/** The flush calls strace counted while `work` ran on the host `pid`, or why they were not counted. */
export async function flushesDuring(pid: number, file: string, work: () => Promise<void>): Promise<Flushes | string> {
  const strace = spawn('strace', ['-f', '-c', '-w', '-e', `trace=${FLUSH_CALLS}`, '-o', file, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  let said = '';
  strace.stderr.on('data', (text: Buffer) => void (said += text.toString()));
  const failed = new Promise<string>((resolve) => {
    strace.once('error', (error) => resolve(`strace could not run (${error.message})`));
    strace.once('exit', (code) => resolve(`strace ended with ${code}: ${said.trim().split('\n').at(-1)}`));
  });
  // strace says once it holds every thread of the host.
  const attached = waitFor(() => (/attached/.test(said) ? true : undefined), 'strace to attach');
  const why = await Promise.race([attached.then(() => null), failed]);
  if (why) return why;
  await work();
  strace.kill('SIGINT');
  await failed;
  // The total line: % time, seconds, usecs/call, calls, [errors,] `total`; no line when nothing was called.
  const total = /^\S+\s+(\S+)\s+\S+\s+(\d+)\s+(?:\d+\s+)?total$/m.exec(readFileSync(file, 'utf8'));
  return total ? { calls: Number(total[2]), seconds: Number(total[1]) } : { calls: 0, seconds: 0 };
}

/** The command measured: this checkout's, or the one DURABLE_CLI names. */
const MEASURED_CLI = process.env.DURABLE_CLI;

export function startMeasured(dataDir: string, plugins: string, specimens: string): Promise<RunningHost> {
  return spawnHost([...benchHostArgs(plugins, specimens), '--data-dir', dataDir], MEASURED_CLI ? { cli: MEASURED_CLI } : {});
}

/** The floors' lines: each one's p50/p99, and the host on disk against memory + one commit. */
function floorLines(disk: string, floors: FlushSample[], times: Record<'disk' | 'memory', number[]>): string[] {
  const at = (values: number[], p: number) => percentile(values, p);
  const of = (key: keyof FlushSample) => floors.map((f) => f[key]);
  const line = (values: number[]) => `p50 ${fmt(at(values, 50))} ms, p99 ${fmt(at(values, 99))} ms`;
  const bound = (p: number) => at(times.memory, p) + at(of('lmdbPut'), p);
  const against = (p: number) => {
    const gap = at(times.disk, p) - bound(p);
    return `p${p} ${fmt(at(times.disk, p))} vs ${fmt(bound(p))} ms (${gap >= 0 ? '+' : ''}${fmt(gap)})`;
  };
  return [
    `the floor after the adds, on the data folder's disk (${disk}): one 4 KiB page + fdatasync ${line(of('fdatasync'))}; ` +
      `LMDB's commit pattern (page + fdatasync + O_DSYNC meta page) ${line(of('lmdbPattern'))}; ` +
      `lmdb-js alone (one put and its commit, the data store's options) ${line(of('lmdbPut'))}; ` +
      `the data store's write alone (lmdb-js's batched transaction, its work a child transaction) ${line(of('storeWrite'))}; ` +
        `a bare hop to a libuv pool thread and back (fstat) ${line(of('poolHop'))}`,
    `the disk host against the memory host + lmdb-js's commit in a loop of its own (the floor's, not the turns'; each percentile of its own): ` +
      `${against(50)}, ${against(99)}`,
  ];
}

/** Section 1: single adds on disk and in memory, in turn, then the floor under them; then the flushes each write takes on disk. */
export async function singleWrites(dir: string): Promise<string[]> {
  const [plugins, specimens] = [buildBenchPlugins(), benchSpecimens()];
  const [disk, memory] = await Promise.all([startMeasured(path.join(dir, 'adds'), plugins, specimens), startMeasured('none', plugins, specimens)]);
  const bound = await openFlushBound(path.join(dir, 'floor'));
  const times: Record<'disk' | 'memory' | 'commit', number[]> = { disk: [], memory: [], commit: [] };
  const floors: FlushSample[] = [];
  try {
    const turn: [number[], (i: number) => Promise<number>][] = [
      [times.disk, (i) => addOne(disk.url, i)],
      [times.memory, (i) => addOne(memory.url, i)],
      [times.commit, (i) => bound.commit(i)],
    ];
    for (let i = 0; i < SINGLE_ADDS; i++) {
      for (let k = 0; k < turn.length; k++) {
        const [into, step] = turn[(i + k) % turn.length]!;
        into.push(await step(i));
      }
    }
    for (let i = 0; i < SINGLE_ADDS; i++) floors.push(await bound.sample(i));
    const flushes = await flushesDuring(disk.child.pid!, path.join(dir, 'strace.txt'), async () => {
      for (let i = 0; i < FLUSHED_ADDS; i++) await addOne(disk.url, SINGLE_ADDS + i);
    });
    const line = (label: string, values: number[]) => `${label}: p50 ${fmt(percentile(values, 50))} ms, p99 ${fmt(percentile(values, 99))} ms`;
    const commit = percentile(times.commit, 99);
    const [disk99, memory99] = [percentile(times.disk, 99), percentile(times.memory, 99)];
    const ceiling = memory99 + commit;
    return [
      ...(MEASURED_CLI ? [`measured: ${MEASURED_CLI}`] : []),
      `annotation add, one at a time (${SINGLE_ADDS} on each host, in turn), ${line('--data-dir (on disk)', times.disk)}; ` +
        `${line('--data-dir none', times.memory)}; p99 on disk ${disk99 >= memory99 ? '+' : ''}${fmt(disk99 - memory99)} ms; ` +
        `${line('one lmdb-js put and its flushed commit in the same turns', times.commit)}`,
      `bound: the disk host's p99 ${fmt(disk99)} ms <= the memory host's p99 + one flushed lmdb-js commit's p99, both in the same turns ` +
        `(${fmt(memory99)} + ${fmt(commit)} = ${fmt(ceiling)} ms): ${disk99 <= ceiling ? 'held' : 'NOT held'}`,
      ...floorLines(bound.disk, floors, times),
      typeof flushes === 'string'
        ? `disk flushes per acknowledged add: not counted, ${flushes}`
        : `disk flushes (${FLUSH_CALLS}) per acknowledged add, strace -f on the host, ${FLUSHED_ADDS} adds one after another: ` +
          `${flushes.calls} in all, ${fmt(flushes.calls / FLUSHED_ADDS)} a write (goal <= 1.05), ` +
          `${fmt((flushes.seconds * 1000) / Math.max(1, flushes.calls))} ms in each`,
    ];
  } finally {
    await Promise.all([disk.stop(), memory.stop(), bound.close()]);
  }
}
