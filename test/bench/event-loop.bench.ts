/**
 * @module event-loop.bench
 * `npm run bench event-loop`: what large requests hold of a host's event loop, on host processes
 * profiled with `--cpu-prof`. Each part prints `/healthz` (polled from a thread of its own) idle
 * and during the work, and the host's main-thread stretches busy over 40 ms (busy-stretches.ts),
 * beside the load average (the machine is shared).
 * (import) a CSV of about 90,000 marks just under the 16 MiB a POST may take, on a host with a
 * data folder and on one in memory;
 * (polylines) the same 16 MiB as about 560,000 rows in about 62 polylines of 9,000 points, both homes;
 * (log) 20 reads at once of a room's log 10,000 entries long (`?limit=10000`), both homes.
 * LOOP_ONLY=import,polylines,log runs the named parts only.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { busyStretches, describeStretches, monotonicMs, type Window } from './busy-stretches.ts';
import { fmt, percentile } from './host-helpers.ts';
import { healthzWhile } from './probe/kept-work.ts';
import { LOOP_DELAY_PRELOAD, loopDelay, readLoopDelay, turnWords, type LoopDelay } from './loop-delay.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const BODY_LIMIT = 16 * 1024 * 1024;
const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
// The largest by a loop: a quiet host answers a probe polling as fast as it can over 100,000 times, past what spreading into Math.max takes.
const row = (v: number[]) =>
  `p50 ${fmt(percentile(v, 50), 1)} ms, p99 ${fmt(percentile(v, 99), 1)} ms, max ${fmt(v.reduce((a, b) => Math.max(a, b), -Infinity), 1)} ms (${v.length})`;

/** What a part measured, and when its work ran (the stretches listed are those begun then). */
interface Measured {
  lines: string[];
  window: Window;
}

/**
 * The busiest turns of the host's event loop as lines: the main thread's CPU in each beside its
 * wall time, when it began counted from the window's start (as the stretches are).
 */
function turnLines(home: string, delay: LoopDelay, window: Window): string[] {
  if (!delay.busiest || !delay.longest) return [`${home}: the main thread's CPU per turn: not counted here (no schedstat)`];
  return [
    `${home}: longest block of the event loop (main-thread CPU in one turn) ${fmt(delay.busiest.cpu, 0)} ms (target: a few tens of ms); ` +
      `longest turn ${turnWords(delay.longest)}`,
    `${home}: busiest turns: ${delay.turns.map((t) => `${fmt((t.at - window.from) / 1000, 2)} s ${turnWords(t)}`).join('; ')}`,
  ];
}

/** A host with a data folder (`disk`) or none, profiled; `use` measures; the profile's stretches after. */
async function profiled(
  home: 'disk' | 'memory',
  use: (host: RunningHost, delay: () => Promise<string>, delays: string) => Promise<Measured>,
): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-loop-prof-'));
  const args = ['--port', '0', '--log-level', 'warn', '--no-viewer', ...(home === 'memory' ? ['--data-dir', 'none'] : [])];
  const delays = path.join(dir, 'loop-delay.json');
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', LOOP_DELAY_PRELOAD];
  const host = await spawnHost(args, { nodeArgs, env: { LOOP_DELAY_FILE: delays } });
  try {
    const { lines, window } = await use(host, () => loopDelay(host, delays), delays);
    await host.stop('SIGTERM');
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
    const stretches = file ? busyStretches(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), 40, window) : [];
    const heading = `${home}: main thread busy over 40 ms during the work: ${stretches.length}${file ? '' : ' (no profile written)'}`;
    return [...lines, heading, ...describeStretches(stretches).map((l) => `  ${l}`)];
  } finally {
    await host.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

async function idleHealthz(host: RunningHost, n = 100): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await (await fetch(`${host.url}/healthz`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  return times;
}

/** Rows of about 185 bytes (a label padded) until just under the body limit: about 90,000 marks. */
function importCsv(): { text: string; rows: number } {
  const pad = 'x'.repeat(150);
  const lines = ['x,y,z,label'];
  let size = lines[0]!.length + 1;
  for (let i = 0; ; i++) {
    const line = `${i % 1000},${i % 997}.5,${i % 13},${pad}${i}`;
    if (size + line.length + 1 > BODY_LIMIT - 64) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

/** Polylines of POLYLINE_POINTS vertices, a row of about 30 bytes each, until just under the body limit: about 62 polylines. */
const POLYLINE_POINTS = 9000;
function polylinesCsv(): { text: string; rows: number } {
  const lines = ['id,kind,x,y,z'];
  let size = lines[0]!.length + 1;
  for (let i = 0; ; i++) {
    const line = `l${Math.floor(i / POLYLINE_POINTS)},polyline,${(i % 1000) + 0.25},${(i % 997) + 0.5},${i % 13}`;
    if (size + line.length + 1 > BODY_LIMIT - 64) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { text: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

/** A CSV import: single marks (`points`) or long polylines (`polylines`), each row a point. */
async function measureImport(home: 'disk' | 'memory', kind: 'points' | 'polylines' = 'points'): Promise<string[]> {
  const { text, rows } = kind === 'points' ? importCsv() : polylinesCsv();
  const what = kind === 'points' ? 'marks' : `rows in ${Math.ceil(rows / POLYLINE_POINTS)} polylines of up to ${POLYLINE_POINTS.toLocaleString('en')} points`;
  return profiled(home, async (host, delay, delays) => {
    const idle = await idleHealthz(host);
    await delay();
    const started = performance.now();
    const from = monotonicMs();
    const csv = { method: 'POST', headers: { 'content-type': 'text/csv' }, body: text };
    const importing = fetch(`${host.url}/api/rooms/csv/annotations`, csv).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
    const during = await healthzWhile(host, importing);
    const ms = performance.now() - started;
    const window = { from, to: monotonicMs() };
    const loop = await readLoopDelay(host, delays);
    const lines = [
      `${home}: /healthz idle ${row(idle)}`,
      `${home}: /healthz while a ${fmt(text.length / 2 ** 20, 2)} MiB CSV of ${rows.toLocaleString('en')} ${what} is imported ` +
        `(${await importing} in ${fmt(ms / 1000, 2)} s): ${row(during)} (target max <= 250 ms); ` +
        `event-loop delay p99 ${fmt(loop.p99, 0)} ms, max ${fmt(loop.max, 0)} ms`,
      ...turnLines(home, loop, window),
    ];
    return { lines, window };
  });
}

/** `count` entries in the room's log: single marks added, eight at a time. */
async function fillLog(host: RunningHost, room: string, count: number): Promise<void> {
  let next = 0;
  const writer = async () => {
    while (next < count) {
      const i = next++;
      const body = JSON.stringify({ kind: 'point', points: [[i, i % 97, i % 13]], label: `mark ${i}` });
      const res = await fetch(`${host.url}/api/rooms/${room}/annotations`, { method: 'POST', headers: JSON_TYPE, body });
      if (res.status !== 201) throw new Error(`adding a mark: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

async function measureLog(home: 'disk' | 'memory'): Promise<string[]> {
  return profiled(home, async (host, delay) => {
    await fillLog(host, 'logged', 10_000);
    const idle = await idleHealthz(host);
    await delay();
    const started = performance.now();
    const from = monotonicMs();
    const reads = Promise.all(
      Array.from({ length: 20 }, () => fetch(`${host.url}/api/rooms/logged/log?limit=10000`).then(async (r) => (await r.arrayBuffer()).byteLength)),
    );
    const during = await healthzWhile(host, reads);
    const bytes = (await reads)[0]!;
    const window = { from, to: monotonicMs() };
    const lines = [
      `${home}: /healthz idle ${row(idle)}`,
      `${home}: /healthz while 20 read 10,000 log entries at once (${fmt(bytes / 2 ** 20, 2)} MiB each, ` +
        `all in ${fmt((performance.now() - started) / 1000, 2)} s): ${row(during)} (target max <= 250 ms); ${await delay()}`,
    ];
    return { lines, window };
  });
}

const PARTS: Record<string, () => Promise<string[]>> = {
  import: async () => [...(await measureImport('disk')), ...(await measureImport('memory'))],
  polylines: async () => [...(await measureImport('disk', 'polylines')), ...(await measureImport('memory', 'polylines'))],
  log: async () => [...(await measureLog('disk')), ...(await measureLog('memory'))],
};

export async function run(): Promise<{ name: string; lines: string[] }> {
  const only = process.env.LOOP_ONLY?.split(',').map((name) => name.trim());
  const lines: string[] = [];
  for (const [name, measure] of Object.entries(PARTS)) {
    if (only && !only.includes(name)) continue;
    const before = load();
    const measured = await measure();
    lines.push(`(${name}) load average ${before} at start, ${load()} at end`, ...measured.map((l) => `    ${l}`));
  }
  return { name: 'event loop: /healthz and the host’s busy stretches beside large requests', lines };
}
