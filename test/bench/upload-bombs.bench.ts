/**
 * @module upload-bombs.bench
 * `npm run bench upload-bombs`: decompression bombs against a host process on loopback, through
 * both doors a file body comes in by: `POST /api/uploads` and publishing (`PUT
 * /api/specimens/{id}`). Two PNGs of 16384 × 16384 RGBA zeros (8 and 16 bits a sample, about 1
 * and 2 MB compressed, 1 and 2 GiB decoded; built in memory by test/helpers/png-bomb.ts) are
 * sent together, five times over per door, while a client asks `/healthz` again as soon as it
 * is answered. Reports each door's statuses, `/healthz` latency meanwhile (p50, p99, max;
 * target: max under 100 ms) and the host's resident memory before and at its peak; and, for
 * comparison, `/healthz` for two seconds before, with nothing sent.
 */
import { pngOfZeros } from '../helpers/png-bomb.ts';
import { rssMiB } from '../helpers/process-rss.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';

const ROUNDS = 5;

/** One GET /healthz, in milliseconds. */
async function healthz(base: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${base}/healthz`);
  await res.arrayBuffer();
  return performance.now() - started;
}

type Door = 'upload' | 'publish';

async function send(base: string, door: Door, name: string, body: Buffer): Promise<number> {
  const url = door === 'upload' ? `${base}/api/uploads?filename=${name}` : `${base}/api/specimens/${name.replace('.png', '')}?filename=${name}`;
  const res = await fetch(url, {
    method: door === 'upload' ? 'POST' : 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(body),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Both bombs sent through `door` ROUNDS times while /healthz is asked: statuses and latencies. */
async function bombard(base: string, door: Door, bombs: Buffer[]): Promise<{ statuses: number[]; latencies: number[] }> {
  let bombing = true;
  const latencies: number[] = [];
  const health = (async () => {
    while (bombing) latencies.push(await healthz(base));
  })();
  const statuses: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    statuses.push(...(await Promise.all(bombs.map((bomb, i) => send(base, door, `bomb-${round}-${i}.png`, bomb)))));
  }
  bombing = false;
  await health;
  return { statuses, latencies };
}

function line(door: Door, { statuses, latencies }: { statuses: number[]; latencies: number[] }): string {
  const counts = Object.entries(statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}));
  const route = door === 'upload' ? 'POST /api/uploads' : 'PUT /api/specimens/{id}';
  return (
    `${route}: statuses ${counts.map(([s, n]) => `${n}× ${s}`).join(', ')}; /healthz meanwhile (${latencies.length} requests, one after another): ` +
    `p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, ` +
    `max ${fmt(Math.max(...latencies), 1)} ms (target: under 100 ms)`
  );
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const host = await spawnHost(['--port', '0', '--plugins', 'none', '--specimens', 'none', '--no-viewer', '--log-level', 'warn']);
  const pid = host.child.pid!;
  try {
    const bombs = [pngOfZeros(16384, 16384), pngOfZeros(16384, 16384, { bitDepth: 16 })];
    // Warm: the encode thread has started and read one small image.
    await send(host.url, 'upload', 'warm.png', pngOfZeros(64, 64));
    const before = rssMiB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
    // The same requests with nothing else going on first: what the machine itself costs them.
    const quiet: number[] = [];
    const quietUntil = performance.now() + 2000;
    while (performance.now() < quietUntil) quiet.push(await healthz(host.url));
    const uploads = await bombard(host.url, 'upload', bombs);
    const published = await bombard(host.url, 'publish', bombs);
    clearInterval(sampler);
    return {
      name: 'upload bombs: PNG decompression bombs refused before decoding, uploaded or published',
      lines: [
        `${ROUNDS} rounds of two PNG bombs per door (16384×16384 RGBA, 8 and 16 bits; ` +
          `${fmt(bombs[0]!.length / 1e6)} and ${fmt(bombs[1]!.length / 1e6)} MB compressed); ` +
          `/healthz with nothing sent: p50 ${fmt(percentile(quiet, 50), 1)} ms, p99 ${fmt(percentile(quiet, 99), 1)} ms, max ${fmt(Math.max(...quiet), 1)} ms`,
        line('upload', uploads),
        line('publish', published),
        `host RSS ${fmt(before, 0)} MiB before, peak ${fmt(peak, 0)} MiB while refusing`,
      ],
    };
  } finally {
    await host.stop('SIGKILL');
  }
}
