/**
 * @module agent-rooms.bench
 * The agent socket under a room's and a host's load, each against the bound a headset needs:
 * a reply streamed to 24 sockets of one room (how long each piece takes from the model
 * server's write to each socket), beside the same pieces through a bare relay (a plain ws
 * server, no host: the physical bound), so the host's own share shows; a 4 MiB screenshot from
 * the executor to the model's next request, beside the provider's client sending it alone; and
 * `/healthz` while 32 rooms talk at once, beside `/healthz` on the same host at rest. The sockets
 * that receive and the executor run in a worker thread (agent-receivers.mjs), so their work is
 * not on the loop of the model server's writer. The host's CPU time for the first two is given
 * too: on a shared machine it moves less with the load than the delays do.
 */
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
import Anthropic from '@anthropic-ai/sdk';
import { connectAgent, type AgentClient } from '../helpers/agent-client.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { cpuMs } from './hit-baselines.ts';
import { startScriptServer } from './host-helpers.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';

const PIECES = 40;
const TURNS = 20;
/** The agent socket of room `r` on the host at `base`. */
const agentUrl = (base: string, r: string) => `${base.replace(/^http/, 'ws')}/ws/agent/${encodeURIComponent(r)}`;
/** A model writing a piece every `ms`. */
const every = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
/** How much later than the bare relay's the host's `q` quantile is. */
const added = (host: number[], bare: number[], q: number) => (quantile(host, q) - quantile(bare, q)).toFixed(2);
const figures = (ms: number[]) =>
  `p50 ${quantile(ms, 0.5).toFixed(2)} ms, p99 ${quantile(ms, 0.99).toFixed(2)} ms, max ${Math.max(...ms).toFixed(2)} ms (${ms.length})`;

/** Joins `count` sockets to room `r`, the first one answering headset calls. */
async function join(host: RunningHost, r: string, count: number): Promise<AgentClient[]> {
  const sockets: AgentClient[] = [];
  for (let i = 0; i < count; i++) sockets.push(await connectAgent(host.url, r));
  return sockets;
}

/** A turn by `speaker`, ended when every socket has had the reply's agent_text_done. */
async function turn(sockets: AgentClient[], words: string): Promise<void> {
  const done = sockets.map((s) => s.next((f) => f.type === 'agent_text_done' || f.type === 'error', 'the reply'));
  sockets[0]!.send({ type: 'text', text: words });
  const refused = (await Promise.all(done)).find((f) => f.type === 'error');
  if (refused) throw new Error(`the turn '${words}' was refused: ${String(refused.message)}`);
}

/** The far end of a room (agent-receivers.mjs) in a worker thread of its own; resolves what it measured. */
function receivers<T>(data: { url: string; mode: 'fan' | 'shot'; sockets?: number }): Promise<T> {
  const worker = new Worker(new URL('agent-receivers.mjs', import.meta.url), { workerData: { ...data, turns: TURNS, origin: performance.timeOrigin } });
  return new Promise<T>((resolve, reject) => {
    worker.once('message', (result: T) => void worker.terminate().then(() => resolve(result)));
    worker.once('error', reject);
  });
}

/** Each piece's delay from the model server's write to its arrival on each of 24 sockets at `url`. */
async function fanOut(url: string, model: ScriptedModel): Promise<number[]> {
  model.answer(() => ({ text: Array.from({ length: PIECES }, (_, i) => `{now}|${i} `), pace: every(2) }));
  return (await receivers<{ delays: number[] }>({ url, mode: 'fan', sockets: 24 })).delays;
}

/** From the executor's 4 MiB screenshot frame to the model's request carrying it, whole. */
async function screenshots(host: RunningHost, model: ScriptedModel): Promise<number[]> {
  const ended: number[] = [];
  model.answer((request) => {
    const pictured = request.toolResults.some((t) => t.images > 0);
    if (pictured) ended.push(performance.timeOrigin + model.timings.at(-1)!.ended);
    return pictured ? { text: ['Seen.'] } : { calls: [{ name: 'capture_viewport', args: {} }] };
  });
  const { sent } = await receivers<{ sent: number[] }>({ url: agentUrl(host.url, room('agent-shot')), mode: 'shot' });
  return sent.map((at, i) => ended[i]! - at);
}

/** A screenshot's picture as the receivers send it: what follows the header in a 4 MiB frame. */
function picture(): Buffer {
  const jpeg = Buffer.alloc(4 * 1024 * 1024 - 4 - JSON.stringify({ kind: 'screenshot', mime: 'image/jpeg' }).length, 7);
  jpeg.set([0xff, 0xd8, 0xff], 0);
  return jpeg;
}

/**
 * The bound under the host's path: the same picture sent by the provider's official client
 * alone, from the call to the same server having the whole body (the request the host makes).
 */
async function clientAlone(model: ScriptedModel, jpeg: Buffer): Promise<number[]> {
  model.answer(() => ({ text: ['Seen.'] }));
  const client = new Anthropic({ apiKey: 'sk-ant-bench', baseURL: model.url, maxRetries: 0 });
  const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/jpeg' as const, data: '' } };
  const delays: number[] = [];
  for (let i = 0; i < 20; i++) {
    const asked = performance.now();
    image.source.data = jpeg.toString('base64');
    const stream = await client.messages.create({ model: 'bench', max_tokens: 10, stream: true, messages: [{ role: 'user', content: [image] }] });
    delays.push(model.timings.at(-1)!.ended - asked);
    for await (const event of stream) void event;
  }
  return delays;
}

/** `/healthz` every 20 ms for `ms`, each answer's time. */
async function healthz(host: RunningHost, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!until()) {
    const asked = performance.now();
    await (await fetch(`${host.url}/healthz`)).arrayBuffer();
    times.push(performance.now() - asked);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

/** 32 rooms of two sockets each, five paced replies per room at once, /healthz polled meanwhile. */
async function busyRooms(host: RunningHost, model: ScriptedModel): Promise<{ busy: number[]; rest: number[] }> {
  let stop = false;
  const rest = healthz(host, () => stop);
  await new Promise((resolve) => setTimeout(resolve, 3000));
  stop = true;
  const atRest = await rest;
  model.answer(() => ({ text: Array.from({ length: PIECES }, (_, i) => `piece ${i} `), pace: every(5) }));
  const rooms = await Promise.all(Array.from({ length: 32 }, () => join(host, room('agent-busy'), 2)));
  let talking = true;
  const busy = healthz(host, () => !talking);
  await Promise.all(rooms.map(async (sockets) => { for (let i = 0; i < 5; i++) await turn(sockets, `busy ${i}`); }));
  talking = false;
  const during = await busy;
  await Promise.all(rooms.flat().map((s) => s.close()));
  return { busy: during, rest: atRest };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const model = await startScriptedModel('anthropic');
  const host = await spawnFixtureHost(['--log-level', 'warn', '--agent-provider', 'anthropic', '--agent-model', 'bench', '--agent-url', model.url], {
    env: { ANTHROPIC_API_KEY: 'sk-ant-bench' },
  });
  const relay = await startScriptServer(`import(${JSON.stringify(new URL('plain-agent-relay.mjs', import.meta.url).href)})`, [model.url]);
  const load = () => loadavg()[0]!.toFixed(2);
  const loads = [load()];
  const pid = host.child.pid!;
  let cpu = cpuMs(pid);
  const fan = await fanOut(agentUrl(host.url, room('agent-fan')), model);
  const fanCpu = cpuMs(pid) - cpu;
  cpu = cpuMs(relay.pid);
  const bare = await fanOut(relay.url, model);
  const bareCpu = cpuMs(relay.pid) - cpu;
  relay.stop();
  cpu = cpuMs(pid);
  const shots = await screenshots(host, model);
  const shotCpu = cpuMs(pid) - cpu;
  const alone = await clientAlone(model, picture());
  const { busy, rest } = await busyRooms(host, model);
  loads.push(load());
  await host.stop();
  await model.close();
  return {
    name: 'agent: a room of 24, a 4 MiB screenshot, 32 rooms at once',
    lines: [
      `load average (1 min) before and after: ${loads.join(' / ')}`,
      `a reply's pieces from the model's write to each of 24 sockets: ${figures(fan)}`,
      `  the host's CPU: ${((fanCpu * 1000) / fan.length).toFixed(1)} µs a piece to a socket, turns and joins included`,
      `baseline, the same pieces through a bare relay (one ws server, no host): ${figures(bare)}`,
      `  its CPU: ${((bareCpu * 1000) / bare.length).toFixed(1)} µs a piece to a socket`,
      `  added by the host: p50 ${added(fan, bare, 0.5)} ms, p99 ${added(fan, bare, 0.99)} ms (bound: p99 10 ms)`,
      `a 4 MiB screenshot frame to the model's request, whole: ${figures(shots)} (bound: 50 ms)`,
      `  the host's CPU: ${(shotCpu / shots.length).toFixed(1)} ms a screenshot, its turn (two model steps) included`,
      `baseline, the same picture by the provider's client alone to the same server: ${figures(alone)}`,
      `/healthz while 32 rooms talk: ${figures(busy)} (bound: 250 ms)`,
      `baseline, /healthz on the same host at rest: ${figures(rest)}`,
    ],
  };
}
