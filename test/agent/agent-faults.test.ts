/**
 * @module agent-faults.test
 * No service the agent depends on ends a host, whatever it does: host processes (`vitrine serve`)
 * with a scripted model and scripted speech services on loopback, and a real Redis, one host
 * alone and two sharing a room on the Redis. The model, speech to text and text to speech each
 * hang (never answer), fail (a 500) and stall (headers, then nothing), and Redis is stopped
 * (SIGSTOP) while the sockets of both hosts talk, then killed and started again. Each fault
 * reaches the room as an `error` frame naming it; afterwards every host process is alive, its
 * `/healthz` answers, its sockets are still open and the next turn is answered.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectAgent, type AgentClient, type Frame } from '../helpers/agent-client.ts';
import { alive } from '../helpers/process-alive.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { startScriptedSpeech, type ScriptedSpeech, type SpeechAsked } from '../helpers/scripted-speech.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A turn's limit, in seconds: every hang and stall ends within it. */
const TURN_SECONDS = 6;
const never = new Promise<void>(() => {});

let model: ScriptedModel;
let speech: ScriptedSpeech;
let redis: RedisServer;
let lone: RunningHost;
let service: RunningHost[];

async function host(extra: string[]): Promise<RunningHost> {
  const plugins = await mkdtemp(join(tmpdir(), 'vitrine-no-plugins-'));
  return spawnHost([
    '--port', '0', '--no-viewer', '--pool-size', '1', '--plugins', plugins, '--specimens', 'none', '--log-level', 'warn',
    '--agent-model', 'scripted', '--agent-provider', 'openai', '--agent-url', model.url, '--agent-turn-timeout', String(TURN_SECONDS),
    '--stt-url', speech.url, '--tts-url', speech.url, ...extra,
  ]);
}

beforeAll(async () => {
  [model, speech, redis] = await Promise.all([startScriptedModel('openai'), startScriptedSpeech(), startRedis()]);
  model.answer((request) => {
    const said = request.lastUserText;
    if (said === 'model hang') return { hold: never };
    if (said === 'model fail') return { status: 500, error: 'scripted failure' };
    if (said === 'model stall') {
      let pieces = 0;
      return { text: ['Stalling ', 'forever.'], pace: () => (pieces++ === 0 ? Promise.resolve() : never) };
    }
    if (said.startsWith('speak ')) return { text: [`Speech to ${said.slice(6)}.`] };
    return { text: ['ok'] };
  });
  [lone, ...service] = await Promise.all([host([]), host(['--redis', redis.url]), host(['--redis', redis.url])]);
  // Each host's first turn loads the provider's client library: done before any turn is timed.
  await Promise.all([lone, ...service].map(warm));
}, 400_000);
afterAll(async () => {
  await Promise.all([lone, ...service].map((h) => h?.stop()));
  await Promise.all([model?.close(), speech?.close(), redis?.stop()]);
});

const MODES = ['hang', 'fail', 'stall'] as const;
/** Speech to text misbehaves by the utterance's seconds (1 hangs, 2 fails, 3 stalls), text to speech by the words it is given. */
const misbehaving = ({ route, seconds, input }: SpeechAsked) =>
  route === 'transcriptions' ? (MODES[Math.round(seconds) - 1] ?? null) : (MODES.find((mode) => input.includes(mode)) ?? null);

/** One turn of `h`'s agent, ended. */
async function warm(h: RunningHost): Promise<void> {
  const client = await connectAgent(h.url, room('warm'));
  client.send({ type: 'text', text: 'warm up' });
  await client.next((f) => f.type === 'agent_text_done', 'the warm-up turn');
  await client.close();
}

const AUDIO = { kind: 'audio', rate: 16000, format: 's16le', channels: 1 };

/** `seconds` of an utterance, sent in one frame, with the floor taken and let go around it. */
async function utter(client: AgentClient, seconds: number): Promise<void> {
  client.send({ type: 'bind' });
  await client.next((f) => f.type === 'speaker_bound');
  client.sendBinary(AUDIO, Buffer.alloc(16000 * 2 * seconds, 3));
  client.send({ type: 'unbind' });
}

const isError = (words: RegExp) => (f: Frame) => f.type === 'error' && words.test(String(f.message));

/** A socket in a fresh room of `base`; on a service, `holder` joins first so the room is held by the other host. */
async function talker(base: string, holder?: string): Promise<AgentClient> {
  const r = room('faults');
  if (holder) await connectAgent(holder, r);
  return connectAgent(base, r);
}

/** Each fault of the model and of both speech services, in rooms of their own, all at once. */
async function everyFault(base: string, holder?: string): Promise<AgentClient[]> {
  speech.misbehave(misbehaving);
  const sockets: AgentClient[] = [];
  const fault = async (act: (client: AgentClient) => Promise<void> | void, heard: (client: AgentClient) => Promise<unknown>) => {
    const client = await talker(base, holder);
    sockets.push(client);
    await act(client);
    await heard(client);
  };
  const ranPast = new RegExp(`ran past ${TURN_SECONDS} s`);
  await Promise.all([
    fault((c) => c.send({ type: 'text', text: 'model hang' }), (c) => c.next(isError(ranPast), 'the hung model’s error')),
    fault((c) => c.send({ type: 'text', text: 'model fail' }), (c) => c.next(isError(/answered 500: scripted failure/), 'the failed model’s error')),
    fault((c) => c.send({ type: 'text', text: 'model stall' }), (c) => c.next(isError(ranPast), 'the stalled model’s error')),
    ...([1, 3] as const).map((seconds) =>
      fault(
        (c) => utter(c, seconds),
        async (c) => {
          await c.next(isError(new RegExp(`speech to text did not answer within ${TURN_SECONDS} s`)), 'the speech-to-text timeout');
          await c.next((f) => f.type === 'speaker_released');
        },
      ),
    ),
    fault(
      (c) => utter(c, 2),
      async (c) => {
        await c.next(isError(/speech to text answered 500: .*scripted failure/), 'the speech-to-text refusal');
        await c.next((f) => f.type === 'speaker_released');
      },
    ),
    ...MODES.map((mode) =>
      fault(
        (c) => c.send({ type: 'text', text: `speak ${mode}` }),
        async (c) => {
          await c.next(isError(/text to speech (did not answer|answered 500)/), `the text-to-speech ${mode}`);
          expect(await c.next((f) => f.type === 'agent_audio_end')).toEqual({ type: 'agent_audio_end', interrupted: false });
        },
      ),
    ),
  ]);
  return sockets;
}

/** The host process is alive, `/healthz` answers, and each socket is open and has its next turn answered. */
async function stillServing(hosts: RunningHost[], sockets: AgentClient[]): Promise<void> {
  for (const h of hosts) {
    expect(alive(h.child.pid!)).toBe(true);
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
  }
  speech.misbehave(null);
  await Promise.all(
    sockets.map(async (client) => {
      expect(client.socket.readyState).toBe(WebSocket.OPEN);
      client.send({ type: 'text', text: 'still there?' });
      await client.next((f) => f.type === 'agent_text' && f.text === 'ok', 'the next turn’s answer');
    }),
  );
}

describe('an agent whose services misbehave', () => {
  it('keeps a lone host up through every fault of the model and the speech services', async () => {
    const sockets = await everyFault(lone.url);
    await stillServing([lone], sockets);
    expect(lone.stderr()).not.toMatch(/unhandled|Cannot set property/i);
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('keeps both hosts of a service up through the same faults, the room held by the other host', async () => {
    const sockets = await everyFault(service[1]!.url, service[0]!.url);
    await stillServing(service, sockets);
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('keeps both hosts up while Redis stalls and while it is gone: each turn it cannot record is an error', async () => {
    const r = room('redis-stall');
    const a = await connectAgent(service[0]!.url, r);
    const b = await connectAgent(service[1]!.url, r);
    a.send({ type: 'text', text: 'before' });
    await b.next((f) => f.type === 'agent_text_done');
    redis.freeze();
    try {
      a.send({ type: 'text', text: 'during the stall' });
      b.send({ type: 'text', text: 'during the stall too' });
      // Redis's commands time out within seconds: the room is told its turns could not be recorded.
      for (const client of [a, b]) await client.next(isError(/503 SPC_ERR_REDIS_UNAVAILABLE/), 'the stalled Redis’s error');
    } finally {
      redis.thaw();
    }
    await redis.kill();
    a.send({ type: 'text', text: 'while Redis is gone' });
    await a.next(isError(/503 SPC_ERR_REDIS_UNAVAILABLE/), 'the gone record’s error');
    await redis.restart();
    for (const h of service) {
      expect(alive(h.child.pid!)).toBe(true);
      expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
      // A host refuses new sockets (503) until its Redis connection is back: /readyz says when.
      await waitFor(async () => ((await fetch(`${h.url}/readyz`)).status === 200 ? true : undefined), 'the host to see Redis again');
    }
    // Both sockets are still open, and the room talks on once Redis is back.
    for (const client of [a, b]) expect(client.socket.readyState).toBe(WebSocket.OPEN);
    const c = await connectAgent(service[1]!.url, room('after-redis'));
    c.send({ type: 'text', text: 'after' });
    await c.next((f) => f.type === 'agent_text' && f.text === 'ok', 'a turn after Redis came back');
    await Promise.all([a.close(), b.close(), c.close()]);
  }, 90_000);
});
