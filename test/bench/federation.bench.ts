/**
 * @module federation.bench
 * A 256 MiB volume envelope through a relay vs the same download from the worker directly.
 * The worker's room cache is warmed first, so both runs measure transfer: direct is a cache
 * hit on the worker; through the relay it is a relay miss that crosses the WebSocket from the
 * worker's cache into the relay's, then goes out over HTTP. Reports throughput, their ratio
 * (target ≥ 0.7) and the relay's peak RSS above idle (target under 1.5× the payload).
 */
import { readFileSync } from 'node:fs';
import { buildFixturePlugins, NO_PLUGINS, workerArgs, FIXTURES } from '../federation/helpers/fixture-build.ts';
import { eventually, killAll, startHost } from '../federation/helpers/host-process.ts';

const MIB = 1024 * 1024;
const PAYLOAD_MIB = 256;

function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /VmRSS:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

async function download(url: string): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  let bytes = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) bytes += part.byteLength;
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

const mibPerSecond = (r: { bytes: number; seconds: number }): number => r.bytes / MIB / r.seconds;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const plugins = buildFixturePlugins();
  try {
    const relay = await startHost(['--relay', '--specimens', `${FIXTURES}/specimens-a`, '--plugins', NO_PLUGINS, '--log-level', 'warn']);
    const worker = await startHost(workerArgs(relay.url, 'w1', plugins.dir, `${FIXTURES}/specimens-b`, ['--log-level', 'warn']));
    await eventually(async () => {
      const ids = ((await (await fetch(`${relay.url}/api/specimens`)).json()) as { id: string }[]).map((e) => e.id);
      return ids.includes('w1:big') ? true : undefined;
    }, 'the worker to register');
    const query = `params=${encodeURIComponent(JSON.stringify({ mib: PAYLOAD_MIB }))}&room_id=bench`;
    await download(`${worker.url}/api/specimens/big/data?${query}`);
    const direct = await download(`${worker.url}/api/specimens/big/data?${query}`);

    const pid = relay.child.pid!;
    const idle = rssBytes(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 10);
    const relayed = await download(`${relay.url}/api/specimens/w1:big/data?${query}`);
    clearInterval(sampler);
    peak = Math.max(peak, rssBytes(pid));
    const hit = await download(`${relay.url}/api/specimens/w1:big/data?${query}`);

    const ratio = mibPerSecond(relayed) / mibPerSecond(direct);
    const above = (peak - idle) / (PAYLOAD_MIB * MIB);
    return {
      name: `federation: ${PAYLOAD_MIB} MiB volume envelope, relay vs worker`,
      lines: [
        `direct from worker (cache hit):       ${mibPerSecond(direct).toFixed(0)} MiB/s (${direct.seconds.toFixed(2)} s, ${direct.bytes} bytes)`,
        `through relay (worker → relay → you): ${mibPerSecond(relayed).toFixed(0)} MiB/s (${relayed.seconds.toFixed(2)} s)`,
        `throughput ratio relay/direct:        ${ratio.toFixed(2)} (target >= 0.7) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`,
        `relay again (relay cache hit):        ${mibPerSecond(hit).toFixed(0)} MiB/s (${hit.seconds.toFixed(2)} s)`,
        `relay RSS idle ${(idle / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB: +${above.toFixed(2)}x payload (target < 1.5) ${above < 1.5 ? 'OK' : 'ABOVE TARGET'}`,
      ],
    };
  } finally {
    await killAll();
    plugins.cleanup();
  }
}
