/**
 * @module leak.bench
 * `npm run bench leak`: what computed misses leave behind. A host on the bench plugin serves
 * LEAK_MISSES (default 400,000) small misses, a slider dragged: `GET /data` of the one-triangle
 * `noop` with a new `seed` each time, all in one room (each replaces the last), eight at a
 * time over kept-alive connections. Resident memory is read at the start (after a warm-up),
 * every tenth of the way, a few seconds after the last miss, and after a minute idle (the
 * reading the bound applies to: what the misses left once the host had time to settle).
 */
import { Agent, request } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rssMiB } from '../helpers/process-rss.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { buildBenchPlugins, fmt } from './host-helpers.ts';

const MISSES = Number(process.env.LEAK_MISSES ?? 400_000);
const CONCURRENCY = 8;
const QUIET_MS = 5000;
const IDLE_MS = Number(process.env.LEAK_IDLE_MS ?? 60_000);

function noopSpecimen(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-leak-'));
  mkdirSync(path.join(dir, 'noop'));
  writeFileSync(path.join(dir, 'noop', 'specimen.json'), JSON.stringify({ display_name: 'noop', function_name: 'noop' }));
  return dir;
}

function get(agent: Agent, port: number, pathname: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const host = await spawnHost(['--port', '0', '--plugins', buildBenchPlugins(), '--specimens', noopSpecimen(), '--log-level', 'warn']);
  const lines: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const pid = host.child.pid!;
  const miss = (seed: number) => get(agent, host.port, `/api/specimens/noop/data?params=${encodeURIComponent(JSON.stringify({ seed }))}&room_id=slider`);
  try {
    let next = 0;
    let failures = 0;
    const drive = async (until: number) => {
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < until) {
            const status = await miss(next++);
            if (status !== 200) failures++;
          }
        }),
      );
    };
    // Warm-up: threads started, code compiled, pools at their working size.
    await drive(2000);
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const start = rssMiB(pid);
    let peak = start;
    const started = performance.now();
    const marks: string[] = [];
    for (let tenth = 1; tenth <= 10; tenth++) {
      await drive(2000 + Math.round((MISSES * tenth) / 10));
      const now = rssMiB(pid);
      peak = Math.max(peak, now);
      marks.push(fmt(now, 0));
    }
    const seconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, QUIET_MS));
    const soon = rssMiB(pid);
    await new Promise((r) => setTimeout(r, IDLE_MS - QUIET_MS));
    const end = rssMiB(pid);
    lines.push(`${MISSES} misses of noop (one room, ${CONCURRENCY} at a time) in ${fmt(seconds, 1)} s (${fmt(MISSES / seconds, 0)}/s), ${failures} not 200`);
    lines.push(`RSS at each tenth (MiB): ${marks.join(', ')}`);
    lines.push(
      `RSS start ${fmt(start, 0)} MiB, peak ${fmt(peak, 0)} MiB, ${QUIET_MS / 1000} s after ${fmt(soon, 0)} MiB, ` +
      `after ${IDLE_MS / 1000} s idle ${fmt(end, 0)} MiB: ` +
      `${end - start >= 0 ? '+' : ''}${fmt(end - start, 0)} MiB (bound: +100 MiB)`,
    );
  } finally {
    agent.destroy();
    await host.stop('SIGKILL');
  }
  return { name: 'leak', lines };
}
