/**
 * @module agent-rooms.bench
 * The agent socket under a room's and a host's load, each against the bound a headset needs:
 * a reply streamed to 24 sockets of one room (how long each piece takes from the model
 * server's write to each socket, which is what the host adds, loopback both ways included);
 * a 4 MiB screenshot from the executor to the model's next request; and `/healthz` while 32
 * rooms talk at once, beside `/healthz` on the same host at rest. The host's CPU time for the
 * first two is given too: on a shared machine it moves less with the load than the delays do.
 */
import Anthropic from '@anthropic-ai/sdk';
import { connectAgent, type AgentClient } from '../helpers/agent-client.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { cpuMs } from './hit-baselines.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';

const PIECES = 40;
/** A model writing a piece every `ms`. */
const every = (ms: number) => () => new Promise<void>((resolve) => setTimeout(resolve, ms));
const quantile = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
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

/** Each piece's delay from its write to its arrival on each of 24 sockets. */
async function fanOut(host: RunningHost, model: ScriptedModel): Promise<number[]> {
  model.answer(() => ({ text: Array.from({ length: PIECES }, (_, i) => `{now}|${i} `), pace: every(2) }));
  const sockets = await join(host, room('agent-fan'), 24);
  const delays: number[] = [];
  for (const s of sockets) {
    s.socket.on('message', (data: Buffer, isBinary) => {
      if (isBinary) return;
      const frame = JSON.parse(data.toString('utf8')) as { type: string; text?: string };
      if (frame.type === 'agent_text') delays.push(performance.now() - Number(frame.text!.split('|')[0]));
    });
  }
  for (let i = 0; i < 20; i++) await turn(sockets, `fan ${i}`);
  await Promise.all(sockets.map((s) => s.close()));
  return delays;
}

/** A 4 MiB screenshot frame's picture: the whole frame is the most a binary frame may be (header, its length and the picture). */
function picture(): Buffer {
  const jpeg = Buffer.alloc(4 * 1024 * 1024 - 64, 7);
  jpeg.set([0xff, 0xd8, 0xff], 0);
  return jpeg;
}

/** From the executor's 4 MiB screenshot frame to the model's request carrying it, whole. */
async function screenshots(host: RunningHost, model: ScriptedModel): Promise<number[]> {
  const jpeg = picture();
  let sent = 0;
  const delays: number[] = [];
  model.answer((request) => {
    const pictured = request.toolResults.some((t) => t.images > 0);
    if (pictured) delays.push(model.timings.at(-1)!.ended - sent);
    return pictured ? { text: ['Seen.'] } : { calls: [{ name: 'capture_viewport', args: {} }] };
  });
  const [executor] = await join(host, room('agent-shot'), 1);
  executor!.socket.on('message', (data: Buffer, isBinary) => {
    const frame = isBinary ? null : (JSON.parse(data.toString('utf8')) as { type: string; request_id?: string });
    if (frame?.type !== 'tool_call') return;
    executor!.send({ type: 'tool_result', request_id: frame.request_id, result: { ok: true } });
    sent = performance.now();
    executor!.sendBinary({ kind: 'screenshot', mime: 'image/jpeg' }, jpeg);
  });
  for (let i = 0; i < 20; i++) {
    await turn([executor!], `look ${i}`);
    // A new conversation each time: the request carries this picture, not the ones kept before it.
    executor!.send({ type: 'end_conversation' });
  }
  await executor!.close();
  return delays;
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
  const pid = host.child.pid!;
  let cpu = cpuMs(pid);
  const fan = await fanOut(host, model);
  const fanCpu = cpuMs(pid) - cpu;
  cpu = cpuMs(pid);
  const shots = await screenshots(host, model);
  const shotCpu = cpuMs(pid) - cpu;
  const alone = await clientAlone(model, picture());
  const { busy, rest } = await busyRooms(host, model);
  await host.stop();
  await model.close();
  return {
    name: 'agent: a room of 24, a 4 MiB screenshot, 32 rooms at once',
    lines: [
      `a reply's pieces from the model's write to each of 24 sockets: ${figures(fan)} (bound: p99 10 ms)`,
      `  the host's CPU: ${((fanCpu * 1000) / fan.length).toFixed(1)} µs a piece to a socket, turns and joins included`,
      `a 4 MiB screenshot frame to the model's request, whole: ${figures(shots)} (bound: 50 ms)`,
      `  the host's CPU: ${(shotCpu / shots.length).toFixed(1)} ms a screenshot, its turn (two model steps) included`,
      `baseline, the same picture by the provider's client alone to the same server: ${figures(alone)}`,
      `/healthz while 32 rooms talk: ${figures(busy)} (bound: 250 ms)`,
      `baseline, /healthz on the same host at rest: ${figures(rest)}`,
    ],
  };
}
