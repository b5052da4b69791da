/**
 * @module agent-rooms.bench
 * The agent socket under a room's and a host's load, each against its baseline in the same run:
 * a reply streamed to 24 sockets of one room (how long each piece takes from the model server's
 * write to each socket), beside the same pieces through a bare relay (a plain ws server, no host:
 * the physical bound), the bound being the host's p99 at most twice the relay's; a 4 MiB
 * screenshot from the executor to the model's next request, beside the provider's client sending
 * the same picture alone (the host's p50 at most 1.5 times the client's) and beside a bare ws
 * server taking the frame off a socket and sending it by the same client; and `/healthz` while 32
 * rooms talk at once, beside `/healthz` on the same host at rest. Each comparison's two sides take
 * turns (the order swapped every turn), so a machine whose load moves moves both. The sockets that
 * receive and the executor run in a worker thread (agent-receivers.mjs), so their work is not on
 * the loop of the model server's writer. The CPU each side's process spent is given too: on a
 * shared machine it moves less with the load than the delays do.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { loadavg } from 'node:os';
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

/** The far end of the rooms (agent-receivers.mjs), in a worker thread of its own, asked one step at a time. */
class Receivers {
  #worker = new Worker(new URL('agent-receivers.mjs', import.meta.url), { workerData: { origin: performance.timeOrigin } });

  #ask<T>(message: Record<string, unknown>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const failed = (error: Error) => reject(error);
      this.#worker.once('error', failed);
      this.#worker.once('message', (answer: { ok: boolean; error?: string; measured?: T }) => {
        this.#worker.off('error', failed);
        if (answer.ok) resolve(answer.measured as T);
        else reject(new Error(String(answer.error)));
      });
      this.#worker.postMessage(message);
    });
  }

  join(key: string, url: string, mode: 'fan' | 'shot', sockets: number): Promise<void> {
    return this.#ask({ op: 'join', key, url, mode, sockets });
  }

  /** One turn of room `key`: each piece's delay on each socket (fan), or when each screenshot was sent (shot). */
  turn(key: string, turn: number): Promise<number[]> {
    return this.#ask({ op: 'turn', key, turn });
  }

  /** Closes room `key`'s sockets. */
  leave(key: string): Promise<void> {
    return this.#ask({ op: 'leave', key });
  }

  async close(): Promise<void> {
    await this.#ask({ op: 'close' });
    await this.#worker.terminate();
  }
}

/** What one side of a comparison measured, and the CPU its process spent on it. */
interface Side {
  ms: number[];
  cpu: number;
}

/** Runs `work` for the process `pid`, adding what it measured and the CPU it cost to `side`. */
async function timed(side: Side, pid: number, work: () => Promise<number[]>): Promise<void> {
  const cpu = cpuMs(pid);
  side.ms.push(...(await work()));
  side.cpu += cpuMs(pid) - cpu;
}

/**
 * Each piece's delay from the model server's write to its arrival on each of 24 sockets: the
 * host's room and the bare relay's take turns (the order swapped every turn), so both see the
 * same load.
 */
async function fanOut(receivers: Receivers, hostUrl: string, relay: { url: string; pid: number }, hostPid: number, model: ScriptedModel) {
  model.answer(() => ({ text: Array.from({ length: PIECES }, (_, i) => `{now}|${i} `), pace: every(2) }));
  await receivers.join('host', agentUrl(hostUrl, room('agent-fan')), 'fan', 24);
  await receivers.join('bare', relay.url, 'fan', 24);
  const host: Side = { ms: [], cpu: 0 };
  const bare: Side = { ms: [], cpu: 0 };
  for (let i = 0; i < TURNS; i++) {
    const sides = [() => timed(host, hostPid, () => receivers.turn('host', i)), () => timed(bare, relay.pid, () => receivers.turn('bare', i))];
    for (const side of i % 2 ? sides.reverse() : sides) await side();
  }
  await receivers.leave('host');
  await receivers.leave('bare');
  return { host, bare };
}

/**
 * The provider's official client alone in a process of its own (plain-picture-client.mjs), as the
 * host is: `send()` has it send the picture once, resolving when it began (a clock shared by the
 * bench's processes and threads).
 */
async function pictureClient(modelUrl: string): Promise<{ send(): Promise<number>; stop(): void }> {
  const script = fileURLToPath(new URL('plain-picture-client.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, modelUrl], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async () => String((await lines.next()).value ?? 'failed: the client ended');
  if ((await next()) !== 'ready') throw new Error('the picture client did not start');
  return {
    async send() {
      child.stdin!.write('go\n');
      const line = await next();
      if (!line.startsWith('asked ')) throw new Error(`the picture client ${line}`);
      return Number(line.slice('asked '.length));
    },
    stop: () => void child.kill(),
  };
}

/** Where a screenshot's time went: until the request's first bytes reached the model server, and in all. */
interface ShotTimes {
  toRequest: number[];
  whole: number[];
}

/**
 * A 4 MiB screenshot from the executor's frame to the model's request carrying it, whole, beside
 * the bound under it: the same picture sent by the provider's official client alone, from the
 * call to the same server having the whole body; and beside the physical bound of a host, which
 * must first take the frame off the headset's socket: a bare ws server (plain-picture-relay.mjs)
 * taking the same frame from the same socket thread and sending its picture by the same client.
 * The three take turns, each going first in turn.
 */
async function screenshots(receivers: Receivers, host: RunningHost, model: ScriptedModel) {
  const times: { arrived: number; ended: number }[] = [];
  model.answer((request) => {
    // The client alone offers no tools; the host's request carrying the picture answers the capture.
    const pictured = request.toolResults.some((t) => t.images > 0) || request.toolNames.length === 0;
    if (pictured) times.push(model.timings.at(-1)!);
    return pictured ? { text: ['Seen.'] } : { calls: [{ name: 'capture_viewport', args: {} }] };
  });
  await receivers.join('shot', agentUrl(host.url, room('agent-shot')), 'shot', 1);
  const client = await pictureClient(model.url);
  const relay = await startScriptServer(`import(${JSON.stringify(new URL('plain-picture-relay.mjs', import.meta.url).href)})`, [model.url]);
  await receivers.join('shot-relay', relay.url, 'shot', 1);
  const shots: Record<'host' | 'alone' | 'relay', ShotTimes> = {
    host: { toRequest: [], whole: [] },
    alone: { toRequest: [], whole: [] },
    relay: { toRequest: [], whole: [] },
  };
  const took = (side: ShotTimes, from: number) => {
    const at = times.at(-1)!;
    side.toRequest.push(performance.timeOrigin + at.arrived - from);
    side.whole.push(performance.timeOrigin + at.ended - from);
  };
  const pid = host.child.pid!;
  let hostCpu = 0;
  const viaHost = async (i: number) => {
    const cpu = cpuMs(pid);
    const [sent] = await receivers.turn('shot', i);
    hostCpu += cpuMs(pid) - cpu;
    took(shots.host, sent!);
  };
  const alone = async () => took(shots.alone, await client.send());
  const viaRelay = async (i: number) => took(shots.relay, (await receivers.turn('shot-relay', i))[0]!);
  try {
    for (let i = 0; i < TURNS; i++) {
      const sides = [() => viaHost(i), alone, () => viaRelay(i)];
      // Each side goes first, second and third in turn.
      for (let k = 0; k < sides.length; k++) await sides[(i + k) % sides.length]!();
    }
  } finally {
    client.stop();
    relay.stop();
  }
  return { ...shots, hostCpu };
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
    // AGENT_PROF=<folder>: the host writes a CPU profile of each thread there when it stops.
    ...(process.env.AGENT_PROF ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', process.env.AGENT_PROF] } : {}),
  });
  const relay = await startScriptServer(`import(${JSON.stringify(new URL('plain-agent-relay.mjs', import.meta.url).href)})`, [model.url]);
  const receivers = new Receivers();
  const load = () => loadavg()[0]!.toFixed(2);
  const loads = [load()];
  const fan = await fanOut(receivers, host.url, relay, host.child.pid!, model);
  relay.stop();
  const shots = await screenshots(receivers, host, model);
  await receivers.close();
  const { busy, rest } = await busyRooms(host, model);
  loads.push(load());
  await host.stop();
  await model.close();
  const perPiece = (side: Side) => ((side.cpu * 1000) / side.ms.length).toFixed(1);
  const ratio = (a: number[], b: number[], q: number) => (quantile(a, q) / quantile(b, q)).toFixed(2);
  return {
    name: 'agent: a room of 24, a 4 MiB screenshot, 32 rooms at once',
    lines: [
      `load average (1 min) before and after: ${loads.join(' / ')}`,
      `a reply's pieces from the model's write to each of 24 sockets, ${TURNS} turns each side, taking turns:`,
      `  the host: ${figures(fan.host.ms)}; its CPU ${perPiece(fan.host)} µs a piece to a socket, turns included`,
      `  a bare relay (one ws server, no host): ${figures(fan.bare.ms)}; its CPU ${perPiece(fan.bare)} µs a piece to a socket`,
      `  the host's p99 over the bare relay's: ${ratio(fan.host.ms, fan.bare.ms, 0.99)}× (bound: 2×); ` +
        `added by the host: p50 ${added(fan.host.ms, fan.bare.ms, 0.5)} ms, p99 ${added(fan.host.ms, fan.bare.ms, 0.99)} ms`,
      `a 4 MiB screenshot frame to the model's request, whole, ${TURNS} each side, taking turns:`,
      `  through the host: ${figures(shots.host.whole)}; until the request's first bytes: ${figures(shots.host.toRequest)}`,
      `    the host's CPU: ${(shots.hostCpu / TURNS).toFixed(1)} ms a screenshot's turn (two model steps)`,
      `  the provider's client alone, in a process of its own, the same picture to the same server: ${figures(shots.alone.whole)}; ` +
        `until the request's first bytes: ${figures(shots.alone.toRequest)}`,
      `  the host's p50 over the client's alone: ${ratio(shots.host.whole, shots.alone.whole, 0.5)}× (bound: 1.5×)`,
      `  the physical bound: a bare ws server (a process of its own) taking the same frame from the same socket thread and sending ` +
        `its picture by the same client: ${figures(shots.relay.whole)}; until the request's first bytes: ${figures(shots.relay.toRequest)}`,
      `  the host's p50 over the bare ws server's: ${ratio(shots.host.whole, shots.relay.whole, 0.5)}×; ` +
        `the bare ws server's over the client's alone: ${ratio(shots.relay.whole, shots.alone.whole, 0.5)}×`,
      `/healthz while 32 rooms talk: ${figures(busy)} (bound: 250 ms)`,
      `baseline, /healthz on the same host at rest: ${figures(rest)}`,
    ],
  };
}
