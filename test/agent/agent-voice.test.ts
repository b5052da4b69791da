/**
 * @module agent-voice.test
 * The agent's voice on a host with scripted speech services and a scripted model on loopback:
 * `bind` takes the floor (every socket hears `speaker_bound`; another socket's `bind` is told the
 * slot is held), audio frames are kept, `unbind` turns an utterance of at least 0.5 s into a
 * `transcript` to every socket and a turn whose reply is spoken as numbered `tts` frames and
 * `agent_audio_end`, a shorter one only frees the floor; a `bind` while the agent speaks cuts it
 * off (`agent_audio_end` interrupted, then `speaker_bound`); past 90 s of audio the rest is
 * refused once; bad audio headers are named.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectAgent, type AgentClient } from '../helpers/agent-client.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { startScriptedSpeech, type ScriptedSpeech } from '../helpers/scripted-speech.ts';
import { waitFor } from '../helpers/wait-for.ts';

let model: ScriptedModel;
let speech: ScriptedSpeech;
const server = fileTestApp(async () => {
  model = await startScriptedModel('openai');
  speech = await startScriptedSpeech();
  return { agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url, sttUrl: speech.url, ttsUrl: speech.url };
});
afterAll(async () => {
  await model?.close();
  await speech?.close();
});

const RATE = 48000;
const AUDIO = { kind: 'audio', rate: RATE, format: 's16le', channels: 1 };
/** `seconds` of microphone audio in frames of 4096 samples, as the client's capture sends them. */
function speak(client: AgentClient, seconds: number): void {
  let left = Math.round(seconds * RATE);
  while (left > 0) {
    const samples = Math.min(4096, left);
    client.sendBinary(AUDIO, Buffer.alloc(samples * 2, 3));
    left -= samples;
  }
}

/** What a socket received, text frames by type and binary ones as `tts:<seq>`. */
const sequence = (client: AgentClient, from = 0) =>
  client.received.slice(from).map((r) => ('text' in r ? r.text.type : `${String(r.binary.header.kind)}:${String(r.binary.header.seq)}`));

describe('the agent’s voice', () => {
  it('turns an utterance into a transcript and a turn whose reply is spoken', async () => {
    model.answer(() => ({ text: ['Hello there. ', 'How are ', 'you?'] }));
    const r = room('voice');
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r);
    a.send({ type: 'bind' });
    expect(await b.next((f) => f.type === 'speaker_bound')).toEqual({ type: 'speaker_bound', client_id: a.clientId });
    b.send({ type: 'bind' });
    expect(await b.next((f) => f.type === 'error')).toEqual({ type: 'error', message: 'speaker slot is held' });
    speak(a, 1.2);
    a.send({ type: 'unbind' });
    expect(await b.next((f) => f.type === 'transcript')).toEqual({ type: 'transcript', text: 'heard 1.2 s', client_id: a.clientId, final: true });
    await b.next((f) => f.type === 'agent_audio_end');
    expect(sequence(b, 1)).toEqual([
      'speaker_bound',
      'error',
      'transcript',
      'speaker_released',
      'status',
      'agent_text',
      'agent_text',
      'agent_text',
      'agent_text_done',
      'tts:0',
      'tts:1',
      'agent_audio_end',
    ]);
    expect(b.frames().at(-1)).toEqual({ type: 'agent_audio_end', interrupted: false });
    expect(speech.spoken.slice(-2)).toEqual(['Hello there.', 'How are you?']);
    expect(speech.transcriptions.at(-1)).toMatchObject({ rate: RATE });
    expect(model.requests.at(-1)!.lastUserText).toBe('heard 1.2 s');
    const tts = b.received.flatMap((x) => ('binary' in x ? [x.binary] : []));
    expect(tts[0]!.header).toEqual({ kind: 'tts', rate: 24000, format: 's16le', channels: 1, seq: 0 });
    expect(tts[0]!.payload.length).toBe('Hello there.'.length * 240 * 2);
    await Promise.all([a.close(), b.close()]);
  });

  it('frees the floor without a turn for an utterance under 0.5 s', async () => {
    const r = room('voice');
    const a = await connectAgent(server.url, r);
    const before = speech.transcriptions.length;
    a.send({ type: 'bind' });
    await a.next((f) => f.type === 'speaker_bound');
    speak(a, 0.3);
    a.send({ type: 'unbind' });
    await a.next((f) => f.type === 'speaker_released');
    expect(sequence(a, 1)).toEqual(['speaker_bound', 'speaker_released']);
    expect(speech.transcriptions.length).toBe(before);
    await a.close();
  });

  it('cuts the agent off when someone takes the floor while it speaks', async () => {
    let release!: () => void;
    speech.holdSpeech(() => new Promise<void>((resolve) => (release = resolve)));
    model.answer(() => ({ text: ['A long answer. ', 'It goes on.'] }));
    const r = room('voice');
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r);
    a.send({ type: 'text', text: 'talk to me' });
    await b.next((f) => f.type === 'agent_text_done');
    await waitFor(() => (speech.spoken.at(-1) === 'A long answer.' ? true : undefined), 'the first sentence being spoken');
    const from = b.received.length;
    b.send({ type: 'bind' });
    await b.next((f) => f.type === 'speaker_bound');
    expect(sequence(b, from)).toEqual(['agent_audio_end', 'speaker_bound']);
    expect(b.frames().at(-2)).toEqual({ type: 'agent_audio_end', interrupted: true });
    speech.holdSpeech(null);
    release();
    b.send({ type: 'unbind' });
    await b.next((f) => f.type === 'speaker_released');
    // Nothing of the reply it was cut off in comes after.
    expect(sequence(b, from).filter((t) => t.startsWith('tts'))).toEqual([]);
    await Promise.all([a.close(), b.close()]);
  });

  it('keeps at most 90 s of audio, refuses the rest once, and names a bad audio header', async () => {
    model.answer(() => ({ text: ['ok'] }));
    const a = await connectAgent(server.url, room('voice'));
    a.sendBinary({ kind: 'audio', rate: 3, format: 's16le', channels: 1 }, Buffer.alloc(8));
    expect((await a.next((f) => f.type === 'error')).message).toBe("an audio frame's rate must be an integer from 8000 to 192000, got 3");
    a.send({ type: 'bind' });
    await a.next((f) => f.type === 'speaker_bound');
    // 16 kHz frames of 4 s, as large as a frame may be: 23 of them pass 90 s.
    for (let i = 0; i < 23; i++) a.sendBinary({ kind: 'audio', rate: 16000 }, Buffer.alloc(16000 * 4 * 2));
    expect((await a.next((f) => f.type === 'error')).message).toBe('an utterance keeps at most 90 s of audio: the rest is not kept');
    a.send({ type: 'unbind' });
    await a.next((f) => f.type === 'transcript');
    expect(speech.transcriptions.at(-1)!.seconds).toBe(88);
    expect(a.frames().filter((f) => f.type === 'error')).toHaveLength(2);
    await a.close();
  });
});
