/**
 * @module python.bench
 * `npm run bench python`: Python plugin functions against their TypeScript twins, in one run on
 * one host (the bench plugin and test/fixtures/python-bench-plugins side by side):
 * - a no-op through POST /invoke (every call a miss: a new `seed`), p50 and p99 of each;
 * - a 64 MiB float32 volume to the last byte of its /data reply (misses, alternating);
 * - DELETE of a job whose Python function loops without yielding: DELETE to `cancelled`, and
 *   the time until the process spends no more CPU; the next call's answer;
 * - faults: 20 no-op requests in flight while a function calls os._exit(1), then while one
 *   exhausts its memory (a 2 GiB address-space limit): how many of the 20 answered 200;
 * - start-up with 10 Python plugins (each importing numpy) against none: spawn to the first
 *   answer of the catalog, medians of alternating rounds.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { PYTHON } from '../helpers/python-plugins.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins, download, fmt, percentile } from './host-helpers.ts';
import { median } from './startup.bench.ts';

const CALLS = 400;

function buildPython(into: string, copies = 0): void {
  const out = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-py-'));
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/python-bench-plugins'), '--out', out], { cwd: REPO });
  cpSync(path.join(out, 'py-bench'), path.join(into, 'py-bench'), { recursive: true });
  if (copies === 0) return;
  // Ten plugins of their own (function names are global): the same module, renamed.
  const source = readFileSync(path.join(REPO, 'test/fixtures/python-bench-plugins/py-bench/plugin.py'), 'utf8').replace(/^specimens = \[[\s\S]*$/m, '');
  const src = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-py10-src-'));
  for (let i = 0; i < copies; i++) {
    const dir = path.join(src, `py-copy-${i}`);
    cpSync(path.join(REPO, 'test/fixtures/python-bench-plugins/py-bench'), dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'plugin.py'),
      `${source.replace(/def py_/g, `def c${i}_`).replace(/py_noop\(/g, `c${i}_noop(`)}\nspecimens = [{"id": "copy-${i}", "function": "c${i}_noop", ` +
        `"display_name": "copy ${i}"}]\n`,
    );
  }
  execFileSync(process.execPath, [CLI, 'build', src, '--out', into], { cwd: REPO });
}

async function invokeMs(host: RunningHost, fn: string, seed: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${host.url}/api/processing/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ function_name: fn, kwargs: { seed } }),
  });
  if (res.status !== 200) throw new Error(`${fn} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

/** CPU ticks (user + system) of `pid` so far. */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function runnerPids(): number[] {
  return execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes('vitrine._runner'))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

async function calls(host: RunningHost, lines: string[]): Promise<void> {
  const ts: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < 40; i++) await Promise.all([invokeMs(host, 'noop', -1 - i), invokeMs(host, 'py_noop', -1 - i)]);
  for (let i = 0; i < CALLS; i++) {
    ts.push(await invokeMs(host, 'noop', i));
    py.push(await invokeMs(host, 'py_noop', i));
  }
  const row = (name: string, v: number[]) => `${name} p50 ${fmt(percentile(v, 50))} ms, p99 ${fmt(percentile(v, 99))} ms`;
  lines.push(`no-op through /invoke, ${CALLS} misses each, alternating:`, `  ${row('TypeScript', ts)}`, `  ${row('Python    ', py)}`);
  lines.push(
    `  Python − TypeScript: p50 +${fmt(percentile(py, 50) - percentile(ts, 50))} ms (target ≤ 2), ` +
      `p99 +${fmt(percentile(py, 99) - percentile(ts, 99))} ms (target ≤ 5)`,
  );
}

async function volumes(host: RunningHost, lines: string[]): Promise<void> {
  const ts: number[] = [];
  const py: number[] = [];
  for (let round = 0; round < 6; round++) {
    const q = (fn: string) => `${host.url}/api/specimens/${fn}/data?params=${encodeURIComponent(JSON.stringify({ megabytes: 64, seed: round + 1 }))}`;
    const a = await download(q('float_volume'));
    const b = await download(q('py-float-volume'));
    if (a.status !== 200 || b.status !== 200 || a.bytes !== b.bytes) throw new Error(`volumes answered ${a.status}/${b.status}, ${a.bytes}/${b.bytes} bytes`);
    if (round > 0) {
      ts.push(a.seconds * 1000);
      py.push(b.seconds * 1000);
    }
  }
  lines.push(
    `64 MiB float32 volume, /data to the last byte (misses; medians of 5):`,
    `  TypeScript ${fmt(median(ts), 0)} ms, Python ${fmt(median(py), 0)} ms: Python − TypeScript ${fmt(median(py) - median(ts), 0)} ms (target ≤ 100)`,
  );
}

async function cancel(host: RunningHost, lines: string[]): Promise<void> {
  const started = (await (
    await fetch(`${host.url}/api/specimens/py-spin/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { seconds: 120 } }),
    })
  ).json()) as { job_id: string };
  const busy = await waitFor(() => {
    const pids = runnerPids();
    const before = new Map(pids.map((pid) => [pid, cpuTicks(pid)]));
    return new Promise<number | undefined>((resolve) => setTimeout(() => resolve(pids.find((pid) => cpuTicks(pid) - before.get(pid)! > 5)), 200));
  }, 'the spinning process');
  const t0 = performance.now();
  await fetch(`${host.url}/api/jobs/${started.job_id}`, { method: 'DELETE' });
  await waitFor(
    async () =>
      ((await (await fetch(`${host.url}/api/jobs/${started.job_id}/progress`)).json()) as { error: string | null }).error === 'cancelled' ? true : undefined,
    'cancelled',
    5000,
    5,
  );
  const cancelled = performance.now() - t0;
  await waitFor(() => {
    const ticks = cpuTicks(busy);
    return new Promise<boolean | undefined>((resolve) => setTimeout(() => resolve(cpuTicks(busy) - ticks === 0 ? true : undefined), 50));
  }, 'the process to stop spinning', 5000, 0);
  const idle = performance.now() - t0;
  const next = await invokeMs(host, 'py_noop', 1e6);
  lines.push(
    `DELETE of a job looping in Python: cancelled after ${fmt(cancelled, 0)} ms, process CPU stopped within ${fmt(idle, 0)} ms (target 1000; interrupted, ` +
    `the process stays warm), next call answered in ${fmt(next, 1)} ms`,
  );
}

async function faults(host: RunningHost, lines: string[]): Promise<void> {
  for (const fn of ['py_exit', 'py_hog']) {
    const others = Array.from({ length: 20 }, (_, i) =>
      fetch(`${host.url}/api/processing/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ function_name: i % 2 ? 'py_noop' : 'noop', kwargs: { seed: 5e6 + i + (fn === 'py_hog' ? 100 : 0) } }),
      }),
    );
    const fault = await fetch(`${host.url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: fn, kwargs: {} }),
    });
    const statuses = await Promise.all(others.map(async (p) => (await p).status));
    const detail = ((await fault.json()) as { detail: string }).detail;
    lines.push(
      `${fn === 'py_exit' ? 'os._exit(1)' : 'memory exhausted'}: its own call ${fault.status} (${detail.slice(0, 90)}); ` +
      `${statuses.filter((s) => s === 200).length}/20 others answered 200`,
    );
  }
}

async function firstCatalog(plugins: string, specimens: string): Promise<number> {
  const t0 = performance.now();
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--python', PYTHON, '--no-viewer']);
  await waitFor(async () => ((await fetch(`${host.url}/api/specimens`)).status === 200 ? true : undefined), 'the catalog', 30_000, 2);
  const ms = performance.now() - t0;
  await host.stop();
  return ms;
}

async function startup(lines: string[]): Promise<void> {
  const none = buildBenchPlugins();
  const ten = buildBenchPlugins();
  buildPython(ten, 10);
  const specimens = benchSpecimens();
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < 5; round++) {
    a.push(await firstCatalog(none, specimens));
    b.push(await firstCatalog(ten, specimens));
  }
  lines.push(
    `spawn to the first catalog answer (medians of 5): no Python plugin ${fmt(median(a), 0)} ms, 11 Python plugins importing numpy ${fmt(median(b), 0)} ` +
    `ms (ratio ${fmt(median(b) / median(a))})`,
  );
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const plugins = buildBenchPlugins();
  buildPython(plugins);
  const host = await spawnHost([
    ...benchHostArgs(plugins, benchSpecimens()),
    '--pool-size',
    '2',
    '--python',
    PYTHON,
    '--python-max-bytes',
    String(2 ** 31),
    '--no-viewer',
  ]);
  const lines: string[] = [];
  try {
    await calls(host, lines);
    await volumes(host, lines);
    await cancel(host, lines);
    await faults(host, lines);
  } finally {
    await host.stop();
  }
  await startup(lines);
  return { name: 'Python plugins against their TypeScript twins, one host, 2 compute threads, 2 Python processes', lines };
}
