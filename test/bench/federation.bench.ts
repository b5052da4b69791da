/**
 * @module federation.bench
 * A 256 MiB volume envelope through a relay vs the same download from the worker directly.
 * The worker's room cache is warmed first, so both runs measure transfer: direct is a cache
 * hit on the worker; through the relay it is a relay miss that crosses the WebSocket from the
 * worker's cache into the relay's and goes out over HTTP as it arrives (the relay's cache is
 * cleared before each of the rounds; medians are reported). Reports throughput,
 * their ratio (target ≥ 0.7) and the relay's peak RSS above idle (target under 1.5× the
 * payload). Two more baselines bound what any relay can do on this machine: plain node:http
 * passing the same download through while keeping a copy, and without (plain-relay.mjs).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildFixturePlugins, NO_PLUGINS, workerArgs, FIXTURES } from '../federation/helpers/fixture-build.ts';
import { killAll, registered, startHost } from '../federation/helpers/host-process.ts';
import { rssBytes } from '../helpers/process-rss.ts';

const MIB = 1024 * 1024;
const PAYLOAD_MIB = 256;


async function download(url: string): Promise<{ bytes: number; seconds: number }> {
  const started = performance.now();
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
  let bytes = 0;
  for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) bytes += part.byteLength;
  return { bytes, seconds: (performance.now() - started) / 1000 };
}

const mibPerSecond = (r: { bytes: number; seconds: number }): number => r.bytes / MIB / r.seconds;
const ROUNDS = 5;

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Starts plain-relay.mjs in front of `origin`; resolves with its URL and a stop function. */
async function startPlainRelay(origin: string, keepCopy: boolean): Promise<{ url: string; stop: () => void }> {
  const args = [fileURLToPath(new URL('plain-relay.mjs', import.meta.url)), origin, ...(keepCopy ? [] : ['--no-copy'])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      const match = /listening on (\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`plain relay exited with ${code}`)));
  });
  return { url, stop: () => child.kill() };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const plugins = buildFixturePlugins();
  try {
    const relay = await startHost(['--relay', '--specimens', `${FIXTURES}/specimens-a`, '--plugins', NO_PLUGINS, '--log-level', 'warn']);
    const worker = await startHost(workerArgs(relay.url, 'w1', plugins.dir, `${FIXTURES}/specimens-b`, ['--log-level', 'warn']));
    await registered(relay, 'w1:big');
    const query = `params=${encodeURIComponent(JSON.stringify({ mib: PAYLOAD_MIB }))}&room_id=bench`;
    const directUrl = `${worker.url}/api/specimens/big/data?${query}`;
    const relayUrl = `${relay.url}/api/specimens/w1:big/data?${query}`;
    await download(directUrl);
    const plainRelay = await startPlainRelay(worker.url, true);
    const plainUrl = `${plainRelay.url}/api/specimens/big/data?${query}`;
    const bareRelay = await startPlainRelay(worker.url, false);
    const bareUrl = `${bareRelay.url}/api/specimens/big/data?${query}`;

    // Round 1 also samples the relay's memory and measures a relay cache hit; every round
    // starts from an empty relay cache, so each relayed download crosses the WebSocket.
    const pid = relay.child.pid!;
    const idle = rssBytes(pid);
    let peak = idle;
    let hit = { bytes: 0, seconds: 1 };
    const direct: number[] = [];
    const relayed: number[] = [];
    const plain: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await fetch(`${relay.url}/api/processing/cache/clear`, { method: 'POST' });
      direct.push(mibPerSecond(await download(directUrl)));
      const sampler = round === 0 ? setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 10) : null;
      relayed.push(mibPerSecond(await download(relayUrl)));
      if (sampler) {
        clearInterval(sampler);
        peak = Math.max(peak, rssBytes(pid));
        hit = await download(relayUrl);
      }
      plain.push(mibPerSecond(await download(plainUrl)));
      bare.push(mibPerSecond(await download(bareUrl)));
    }
    plainRelay.stop();
    bareRelay.stop();

    const ratio = median(relayed) / median(direct);
    const plainRatio = median(plain) / median(direct);
    const above = (peak - idle) / (PAYLOAD_MIB * MIB);
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    return {
      name: `federation: ${PAYLOAD_MIB} MiB volume envelope, relay vs worker (median of ${ROUNDS} rounds)`,
      lines: [
        `direct from worker (cache hit):       ${median(direct).toFixed(0)} MiB/s (rounds: ${list(direct)})`,
        `through relay (worker → relay → you): ${median(relayed).toFixed(0)} MiB/s (rounds: ${list(relayed)})`,
        `throughput ratio relay/direct:        ${ratio.toFixed(2)} (target >= 0.7) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`,
        `plain node:http relay keeping a copy: ${median(plain).toFixed(0)} MiB/s (rounds: ${list(plain)}): ratio ${plainRatio.toFixed(2)} of direct; ours ` +
        `${(ratio / plainRatio).toFixed(2)}x of it`,
        `plain node:http pass-through, no copy: ${median(bare).toFixed(0)} MiB/s (rounds: ${list(bare)}): ratio ` +
        `${(median(bare) / median(direct)).toFixed(2)} of direct`,
        `relay again (relay cache hit):        ${mibPerSecond(hit).toFixed(0)} MiB/s`,
        `relay RSS idle ${(idle / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB: +${above.toFixed(2)}x payload (target < 1.5) ` +
        `${above < 1.5 ? 'OK' : 'ABOVE TARGET'}`,
      ],
    };
  } finally {
    await killAll();
    plugins.cleanup();
  }
}
