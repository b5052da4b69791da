/**
 * @module python
 * The probe's short Python call beside long ones: on a host with 2 compute threads and its
 * Python processes, a short call (`py_noop` through /invoke, a new seed each time) in a room of
 * its own, first alone, then while 4 clients keep 1 s Python calls (`py_spin`) running in
 * rooms of their own. Measures the short call's p99 beside them against its p99 alone.
 */
import { mkdtempSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { CLI, REPO } from '../../helpers/cli-path.ts';
import { PYTHON } from '../../helpers/python-plugins.ts';
import { spawnHost, type RunningHost } from '../../helpers/spawn-host.ts';
import { benchHostArgs, benchSpecimens, buildBenchPlugins, fmt, percentile } from '../host-helpers.ts';
import type { ProbePart } from './part.ts';

const SAMPLES = 150;
const LONG_CLIENTS = 4;

/** The bench plugin with the Python bench plugin beside it. */
function plugins(): string {
  const dir = buildBenchPlugins();
  const out = mkdtempSync(path.join(tmpdir(), 'vitrine-probe-py-'));
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/python-bench-plugins'), '--out', out], { cwd: REPO });
  cpSync(path.join(out, 'py-bench'), path.join(dir, 'py-bench'), { recursive: true });
  return dir;
}

async function invoke(host: RunningHost, fn: string, kwargs: object, room: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${host.url}/api/processing/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ function_name: fn, kwargs, room_id: room }),
  });
  if (res.status !== 200) throw new Error(`${fn} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return performance.now() - started;
}

async function shortCalls(host: RunningHost, from: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await invoke(host, 'py_noop', { seed: from + i }, 'short'));
  return times;
}

async function measure(): Promise<string[]> {
  const host = await spawnHost([...benchHostArgs(plugins(), benchSpecimens()), '--pool-size', '2', '--python', PYTHON, '--no-viewer']);
  try {
    // Warm: the processes have imported the plugin, and the host has seen both functions' lengths.
    for (let i = 0; i < 20; i++) await invoke(host, 'py_noop', { seed: -1 - i }, 'short');
    await Promise.all([0, 1].map((k) => invoke(host, 'py_spin', { seconds: 1, seed: -1 - k }, `long-${k}`)));
    const idle = await shortCalls(host, 0);
    let stop = false;
    let longCalls = 0;
    const long = Array.from({ length: LONG_CLIENTS }, async (_, c) => {
      for (let i = 0; !stop; i++) {
        await invoke(host, 'py_spin', { seconds: 1, seed: c * 1e6 + i }, `long-${c}`);
        longCalls++;
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const busy = await shortCalls(host, 1e6);
    stop = true;
    await Promise.all(long);
    const row = (v: number[]) => `p50 ${fmt(percentile(v, 50), 1)} ms, p99 ${fmt(percentile(v, 99), 1)} ms, max ${fmt(Math.max(...v), 1)} ms`;
    return [
      `short call alone (${SAMPLES}): ${row(idle)}`,
      `short call beside ${LONG_CLIENTS} clients' 1 s calls (${SAMPLES}; ${longCalls} long calls ran): ${row(busy)}`,
      `p99 ratio ${fmt(percentile(busy, 99) / percentile(idle, 99))}; p99 beside them ${fmt(percentile(busy, 99), 1)} ms (target <= 300 ms)`,
    ];
  } finally {
    await host.stop();
  }
}

export const pythonPart: ProbePart = {
  name: 'python',
  title: `a short Python call in its own room beside ${LONG_CLIENTS} clients' 1 s Python calls, 2 compute threads`,
  measure,
};
