/**
 * @module agent-speech-bounds.test
 * Speech services' answers are read only as far as their bounds: a host process (`vitrine
 * serve`) with a scripted model and scripted speech services on loopback, where each service
 * answers without end (a 1 GiB transcript, 1 GiB of speech, or a 500 whose body is 1 GiB,
 * generated as the host reads). The room is told each answer was refused, a spoken reply still
 * ends with `agent_audio_end`, the host's peak memory stays within a small bound, the speech
 * service writes a tiny part of its gigabyte before the host lets go, `/healthz` answers and the
 * sockets stay open.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectAgent, type AgentClient, type Frame } from '../helpers/agent-client.ts';
import { peakRssMiB, resetPeakRss, rssMiB } from '../helpers/process-rss.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { startScriptedSpeech, type ScriptedSpeech, type SpeechAsked } from '../helpers/scripted-speech.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

/** Most the host's peak memory may grow over all the floods (a host reading one whole would grow by a gigabyte). */
const GROWTH_MIB = 160;
/** Most the floods may write in all before the host lets go (each would write 1 GiB to a host that reads on). */
const FLOODED_MIB = 64;

let model: ScriptedModel;
let speech: ScriptedSpeech;
let host: RunningHost;

beforeAll(async () => {
  [model, speech] = await Promise.all([startScriptedModel('openai'), startScriptedSpeech()]);
  model.answer((request) => ({ text: [request.lastUserText.startsWith('speak ') ? `Speech to ${request.lastUserText.slice(6)}.` : 'ok'] }));
  const plugins = await mkdtemp(join(tmpdir(), 'vitrine-no-plugins-'));
  host = await spawnHost([
    '--port', '0', '--no-viewer', '--pool-size', '1', '--plugins', plugins, '--specimens', 'none', '--log-level', 'warn',
    '--agent-model', 'scripted', '--agent-provider', 'openai', '--agent-url', model.url, '--agent-turn-timeout', '30',
    '--stt-url', speech.url, '--tts-url', speech.url,
  ]);
  // The first turn loads the provider's client library: done before memory is watched.
  const warm = await connectAgent(host.url, room('warm'));
  warm.send({ type: 'text', text: 'speak warmly' });
  await warm.next((f) => f.type === 'agent_audio_end', 'the warm-up reply’s end');
  await warm.close();
}, 120_000);
afterAll(async () => {
  await host?.stop();
  await Promise.all([model?.close(), speech?.close()]);
});

/** Speech to text floods by the utterance's seconds (1: a transcript, 2: a refusal); text to speech by the words it speaks. */
const flooding = ({ route, seconds, input }: SpeechAsked) => {
  if (route === 'transcriptions') return seconds < 1.5 ? 'flood' : 'flood-refusal';
  return input.includes('refusal') ? 'flood-refusal' : input.includes('flood') ? 'flood' : null;
};

const AUDIO = { kind: 'audio', rate: 16000, format: 's16le', channels: 1 };
const isError = (words: RegExp) => (f: Frame) => f.type === 'error' && words.test(String(f.message));

async function utter(client: AgentClient, seconds: number): Promise<void> {
  client.send({ type: 'bind' });
  await client.next((f) => f.type === 'speaker_bound');
  client.sendBinary(AUDIO, Buffer.alloc(16000 * 2 * seconds, 3));
  client.send({ type: 'unbind' });
}

describe('speech services that answer without end', () => {
  it('refuse each answer at its bound, end the spoken reply, and leave the host small and serving', async () => {
    const pid = host.child.pid!;
    const before = rssMiB(pid);
    resetPeakRss(pid);
    speech.misbehave(flooding);
    const sockets = await Promise.all([1, 2, 3, 4].map(() => connectAgent(host.url, room('bounds'))));
    const [transcript, transcriptRefusal, speaking, speakingRefusal] = sockets as [AgentClient, AgentClient, AgentClient, AgentClient];
    const heard = await Promise.all([
      utter(transcript, 1).then(() => transcript.next(isError(/speech to text answered a transcript longer than 64 KiB/), 'the long transcript’s error')),
      utter(transcriptRefusal, 2).then(() => transcriptRefusal.next(isError(/speech to text answered 500: scripted refusal: x+…$/), 'the refusal’s quote')),
      (async () => {
        speaking.send({ type: 'text', text: 'speak flood' });
        await speaking.next(isError(/text to speech answered more than 60 s of speech for one sentence/), 'the long speech’s error');
        return speaking.next((f) => f.type === 'agent_audio_end', 'the reply’s end');
      })(),
      (async () => {
        speakingRefusal.send({ type: 'text', text: 'speak refusal' });
        const quoted = await speakingRefusal.next(isError(/text to speech answered 500: scripted refusal: x+…$/), 'the speech refusal’s quote');
        await speakingRefusal.next((f) => f.type === 'agent_audio_end', 'the refused reply’s end');
        return quoted;
      })(),
    ]);
    // A refusal is quoted from its first 200 bytes only.
    expect(String(heard[1].message).length).toBeLessThan(260);
    expect(String(heard[3].message).length).toBeLessThan(260);
    await transcript.next((f) => f.type === 'speaker_released');
    await transcriptRefusal.next((f) => f.type === 'speaker_released');

    expect(peakRssMiB(pid) - before).toBeLessThan(GROWTH_MIB);
    expect(speech.flooded / (1024 * 1024)).toBeLessThan(FLOODED_MIB);
    expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
    speech.misbehave(null);
    for (const socket of sockets) expect(socket.socket.readyState).toBe(WebSocket.OPEN);
    speaking.send({ type: 'text', text: 'still there?' });
    await speaking.next((f) => f.type === 'agent_text' && f.text === 'ok', 'the next turn’s answer');
    await Promise.all(sockets.map((s) => s.close()));
  }, 90_000);
});
