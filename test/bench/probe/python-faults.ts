/**
 * @module python-faults
 * Two of the probe's Python findings on a real host process with the Python fault fixtures
 * (test/fixtures/python-plugins/py-faults):
 * (children) a job whose function forks four spinning children, cancelled: how long after the
 * DELETE the last child is gone (the cancel ends the plugin process's whole process group); and
 * a function forking children that leave its group, on a host bounding them: how many ran at most;
 * (progress) a job sending 300,000 progress reports: `/healthz`'s p99 while they arrive
 * against its p99 idle just before, and how many reports the job kept.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pythonPluginsDir, PYTHON } from '../../helpers/python-plugins.ts';
import { makeSpecimensDir } from '../../helpers/specimens-dir.ts';
import { spawnHost, type RunningHost } from '../../helpers/spawn-host.ts';
import { fmt, percentile } from '../host-helpers.ts';
import type { ProbePart } from './part.ts';
import { alive } from '../../helpers/process-alive.ts';

const ROUNDS = 5;
const CHILDREN = 4;
const REPORTS = 300_000;
const ESCAPES = 100;
const MAX_CHILDREN = 32;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function json<T>(host: RunningHost, route: string, init?: RequestInit): Promise<T> {
  const res = await fetch(`${host.url}${route}`, init);
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

function start(host: RunningHost, specimen: string, params: object, room: string): Promise<{ job_id: string }> {
  return json(host, `/api/specimens/${specimen}/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params, room_id: room }),
  });
}

type Progress = { status: string; messages: { text: string }[] };

async function withHost<T>(use: (host: RunningHost) => Promise<T>, more: string[] = []): Promise<T> {
  const args = ['--port', '0', '--plugins', await pythonPluginsDir(['py-faults']), '--specimens', await makeSpecimensDir()];
  const host = await spawnHost([...args, '--python', PYTHON, '--pool-size', '2', '--log-level', 'warn', '--no-viewer', ...more]);
  try {
    return await use(host);
  } finally {
    await host.stop();
  }
}

/** One cancel: ms from the DELETE answered to the last forked child gone. */
async function cancelRound(host: RunningHost, round: number): Promise<number> {
  const job = await start(host, 'py-fork-spin', { children: CHILDREN }, `children-${round}`);
  let pids: number[] = [];
  while (pids.length === 0) {
    const progress = await json<Progress>(host, `/api/jobs/${job.job_id}/progress`);
    if (progress.messages.length > 0) pids = JSON.parse(progress.messages[0]!.text) as number[];
    else await pause(20);
  }
  const res = await fetch(`${host.url}/api/jobs/${job.job_id}`, { method: 'DELETE' });
  if (res.status !== 204) throw new Error(`DELETE answered ${res.status}`);
  const cancelled = performance.now();
  while (pids.some(alive)) await pause(2);
  return performance.now() - cancelled;
}

/**
 * One call forking ESCAPES children that each leave the group (setsid) and fork a sleeper, on a
 * host allowing MAX_CHILDREN: the most sleepers alive at once (their pids sampled every 5 ms), what
 * the call answered, and how many are alive a second after it.
 */
async function escapeRound(host: RunningHost): Promise<{ peak: number; said: string; left: number }> {
  const pidDir = await mkdtemp(path.join(tmpdir(), 'vitrine-escapes-'));
  try {
    let [peak, running] = [0, true];
    const sampling = (async () => {
      while (running) {
        peak = Math.max(peak, (await readdir(pidDir)).map(Number).filter(alive).length);
        await pause(5);
      }
    })();
    const res = await fetch(`${host.url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: 'fork_many', kwargs: { count: ESCAPES, escape: true, pid_dir: pidDir } }),
    });
    const said = `${res.status} ${((await res.json()) as { detail?: string }).detail ?? ''}`;
    await pause(1000);
    running = false;
    await sampling;
    return { peak, said, left: (await readdir(pidDir)).map(Number).filter(alive).length };
  } finally {
    await rm(pidDir, { recursive: true, force: true });
  }
}

async function measureChildren(): Promise<string[]> {
  const times = await withHost(async (host) => {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) times.push(await cancelRound(host, round));
    return times;
  });
  const escapes = await withHost(async (host) => {
    const rounds = [];
    for (let round = 0; round < 3; round++) rounds.push(await escapeRound(host));
    return rounds;
  }, ['--python-max-children', String(MAX_CHILDREN)]);
  return [
    `${CHILDREN} forked children of a cancelled job, gone after the DELETE: ${times.map((t) => `${fmt(t, 0)} ms`).join(', ')} ` +
      `(max ${fmt(Math.max(...times), 0)} ms; target <= 1000 ms)`,
    `${ESCAPES} children forked 5 ms apart, each leaving the group (setsid) for a sleeping grandchild, --python-max-children ` +
      `${MAX_CHILDREN}${process.getuid?.() === 0 ? ' (as root: RLIMIT_NPROC does not hold, only the host counts)' : ''}: ` +
      `most alive at once ${escapes.map((e) => e.peak).join(', ')}; alive 1 s after the answer ${escapes.map((e) => e.left).join(', ')}; ` +
      `answered "${escapes[0]!.said}"`,
  ];
}

async function healthzMs(host: RunningHost): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${host.url}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}

async function measureProgress(): Promise<string[]> {
  return withHost(async (host) => {
    const idle: number[] = [];
    for (let i = 0; i < 500; i++) idle.push(await healthzMs(host));
    const job = await start(host, 'py-chatter', { count: REPORTS }, 'chatter');
    const during: number[] = [];
    let progress: Progress;
    for (;;) {
      during.push(await healthzMs(host));
      progress = await json<Progress>(host, `/api/jobs/${job.job_id}/progress`);
      if (progress.status !== 'running') break;
    }
    const row = (v: number[]) => `p50 ${fmt(percentile(v, 50), 1)} ms, p99 ${fmt(percentile(v, 99), 1)} ms, max ${fmt(Math.max(...v), 1)} ms (${v.length})`;
    return [
      `/healthz idle: ${row(idle)}`,
      `/healthz while a job sends ${REPORTS.toLocaleString('en')} progress reports: ${row(during)}`,
      `p99 ratio ${fmt(percentile(during, 99) / percentile(idle, 99))}; the job ended ${progress.status}, keeping ${progress.messages.length} reports, ` +
        `the last "${progress.messages.at(-1)?.text}"`,
    ];
  });
}

export const childrenPart: ProbePart = {
  name: 'children',
  title:
    `a cancelled Python job whose function forked ${CHILDREN} spinning children, ${ROUNDS} times; ` +
    `${ESCAPES} escaping children against a bound of ${MAX_CHILDREN}`,
  measure: measureChildren,
};

export const progressPart: ProbePart = {
  name: 'progress',
  title: `/healthz beside a Python job sending ${REPORTS.toLocaleString('en')} progress reports`,
  measure: measureProgress,
};
