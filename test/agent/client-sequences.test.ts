/**
 * @module client-sequences.test
 * The Ascribe-XR client's own sequences of frames (test/fixtures/agent/ascribe-xr-sequences.json,
 * written down from its code) replayed against a real host process, once with each provider's
 * wire format spoken by a scripted model server on loopback (streamed), and scripted speech
 * services: joining, a streamed reply, a computed volume loaded on the executor with
 * `type: "volume"`, a capture answered by a screenshot frame, an executor leaving mid-call, a
 * queued turn, an interrupt, bind and unbind with audio. Every socket of the room (two headsets
 * and a page) receives each scenario's frames in order, and not one frame breaks the protocol.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectAgent, type AgentClient, type Received } from '../helpers/agent-client.ts';
import { REPO } from '../helpers/cli-path.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ModelRequestSeen, type Provider, type ScriptedReply } from '../helpers/scripted-model.ts';
import { startScriptedSpeech } from '../helpers/scripted-speech.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { protocolProblems } from '../helpers/agent-protocol.ts';

type Scenario = { sends: object[]; model?: ScriptedReply[]; every_socket_receives?: string[]; others_receive?: string[]; status_texts?: string[] };
const FIXTURE = JSON.parse(readFileSync(join(REPO, 'test/fixtures/agent/ascribe-xr-sequences.json'), 'utf8')) as {
  scenarios: Record<string, Scenario & Record<string, unknown>>;
};
const scenario = (name: string) => FIXTURE.scenarios[name]!;

afterAll(killAllHosts);

/** Received frames as the fixture writes them: text frames by type, tts frames as `tts:<seq>`. */
const kinds = (received: Received[]) => received.map((r) => ('text' in r ? r.text.type : `${String(r.binary.header.kind)}:${String(r.binary.header.seq)}`));
/** The text frames of `received`, speech apart (each reply's tts frames and agent_audio_end). */
const said = (received: Received[]) => kinds(received).filter((k) => !k.startsWith('tts:') && k !== 'agent_audio_end');

/** The model's answers for every scenario, chosen by the turn's words and the step it is at. */
function script(loadId: { value: string }, firstQuestion: Promise<void>) {
  const byWords: Record<string, (request: ModelRequestSeen) => ScriptedReply> = {};
  for (const [name, s] of Object.entries(FIXTURE.scenarios)) {
    const words = (s.sends.find((f) => (f as { type?: string }).type === 'text') as { text?: string } | undefined)?.text;
    const steps = s.model ?? [];
    if (words) byWords[words] = (request) => steps[Math.min(stepOf(request), steps.length - 1)] ?? { text: [`(${name})`] };
  }
  // The first question's answer waits until the second one has been queued behind it.
  byWords['First question.'] = () => ({ ...scenario('queued_turn').model![0]!, hold: firstQuestion });
  byWords['Second question.'] = () => scenario('queued_turn').model![1]!;
  return (request: ModelRequestSeen): ScriptedReply => {
    const result = request.toolResults[0]?.text ?? '';
    if (result.includes('"load_id"')) loadId.value = (JSON.parse(result) as { load_id: string }).load_id;
    const reply = byWords[request.lastUserText]?.(request) ?? { text: ['I hear you. ', 'Welcome.'] };
    const calls = reply.calls?.map((call) => (call.name === 'load_specimen' ? { ...call, args: { specimen_id: loadId.value } } : call));
    return { ...reply, ...(calls ? { calls } : {}), ...((reply as { held?: boolean }).held ? { hold: new Promise<void>(() => {}) } : {}) };
  };
}

/** Which step of its turn a request is: how many model answers with tool calls came before it in this turn. */
function stepOf(request: ModelRequestSeen): number {
  const messages = (request.body.messages as { role: string; content: unknown }[]) ?? [];
  let steps = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const isToolAnswer = m.role === 'tool' || (Array.isArray(m.content) && (m.content as { type: string }[])[0]?.type === 'tool_result');
    const isPicture = m.role === 'user' && Array.isArray(m.content) && JSON.stringify(m.content).includes('The picture');
    if (m.role === 'assistant') steps++;
    else if (!isToolAnswer && !isPicture && m.role === 'user') break;
  }
  return steps;
}

describe.each<Provider>(['anthropic', 'openai'])('the client’s sequences against a host on the %s wire format', (provider) => {
  const all: AgentClient[] = [];
  it('replays each scenario with 0 protocol errors', async () => {
    const model = await startScriptedModel(provider);
    const speech = await startScriptedSpeech();
    speech.hear(() => 'Hello agent, can you hear me?');
    const loadId = { value: '' };
    let queued!: () => void;
    model.answer(script(loadId, new Promise<void>((resolve) => (queued = resolve))));
    const host = await spawnFixtureHost(
      ['--agent-model', 'scripted', '--agent-provider', provider, '--agent-url', model.url, '--stt-url', speech.url, '--tts-url', speech.url],
      { env: { ANTHROPIC_API_KEY: 'sk-ant-test-0123456789', OPENAI_API_KEY: undefined } },
    );
    const trio = async () => {
      const r = room('sequences');
      const executor = await connectAgent(host.url, r);
      const headset = await connectAgent(host.url, r);
      const page = await connectAgent(host.url, r, '?kind=page&name=viewer');
      all.push(executor, headset, page);
      return { executor, headset, page, sockets: [executor, headset, page] };
    };
    // A turn: its sends, then each socket waits for the reply's end and its speech's; all saw the same.
    const turnOf = async (name: string, from: AgentClient, sockets: AgentClient[]) => {
      const marks = sockets.map((s) => s.received.length);
      for (const frame of scenario(name).sends) from.send(frame);
      await Promise.all(sockets.map((s) => s.next((f) => f.type === 'agent_audio_end', `${name}: the reply spoken`)));
      const seen = sockets.map((s, i) => s.received.slice(marks[i]));
      for (const other of seen) expect(kinds(other)).toEqual(kinds(seen[0]!));
      return seen.map(said);
    };

    // join, and a streamed reply
    let room1 = await trio();
    expect(kinds(room1.page.received)).toEqual(scenario('join').joiner_receives);
    room1.executor.headset();
    const streamed = await turnOf('streamed_reply', room1.page, room1.sockets);
    for (const seen of streamed) expect(seen).toEqual(scenario('streamed_reply').every_socket_receives);

    // a computed volume loaded on the executor, then a capture answered by a screenshot
    const loaded = await turnOf('load_a_computed_volume', room1.page, room1.sockets);
    for (const seen of loaded) expect(seen).toEqual(scenario('load_a_computed_volume').every_socket_receives);
    const call = room1.headset.frames().find((f) => f.type === 'tool_call' && f.name === 'load_specimen')!;
    expect(call).toMatchObject({ args: { specimen_id: loadId.value, type: 'volume' }, executor: room1.executor.clientId });
    const captured = await turnOf('capture_viewport', room1.page, room1.sockets);
    for (const seen of captured) expect(seen).toEqual(scenario('capture_viewport').every_socket_receives);
    expect(model.requests.at(-1)!.toolResults[0]!.images).toBe(1);
    // The very picture the executor sent (headset()'s own), as the provider's format carries it.
    expect(JSON.stringify(model.requests.at(-1)!.body.messages)).toContain(Buffer.from([0xff, 0xd8, 0xff, 0xd9]).toString('base64'));

    // a queued turn
    const marks = room1.sockets.map((s) => s.received.length);
    room1.page.send(scenario('queued_turn').sends[0]!);
    await room1.page.next((f) => f.type === 'status' && f.text === 'thinking');
    room1.headset.send((scenario('queued_turn').then_sends as object[])[0]!);
    await room1.headset.next((f) => f.type === 'turn_queued');
    queued();
    const spokenEnd = (s: AgentClient) => s.next((f) => f.type === 'agent_audio_end');
    await Promise.all(room1.sockets.map(async (s) => spokenEnd(s).then(() => spokenEnd(s))));
    expect(room1.headset.frames().filter((f) => f.type === 'turn_queued')).toEqual([{ type: 'turn_queued', position: 1 }]);
    expect(said(room1.page.received.slice(marks[2]))).toEqual(scenario('queued_turn').every_socket_receives);
    expect(kinds(room1.executor.received.slice(marks[0]))).toEqual(kinds(room1.page.received.slice(marks[2])));

    // an interrupt
    const before = room1.sockets.map((s) => s.received.length);
    for (const frame of scenario('interrupt').sends) {
      room1.page.send(frame);
      if ((frame as { type: string }).type === 'text') await room1.page.next((f) => f.type === 'status' && f.text === 'thinking');
    }
    await Promise.all(room1.sockets.map((s) => s.next((f) => f.type === 'status' && f.text === 'interrupted')));
    for (const [i, s] of room1.sockets.entries()) {
      const statuses = s.frames().slice(-2).map((f) => f.text);
      expect(kinds(s.received.slice(before[i]))).toEqual(scenario('interrupt').every_socket_receives);
      expect(statuses).toEqual(scenario('interrupt').status_texts);
    }

    // bind and unbind with audio
    const voiceFrom = room1.sockets.map((s) => s.received.length);
    room1.executor.send({ type: 'bind' });
    await room1.executor.next((f) => f.type === 'speaker_bound');
    for (let left = 1.5 * 48000; left > 0; left -= 4096) room1.executor.sendBinary(FIXTURE_AUDIO, Buffer.alloc(Math.min(4096, left) * 2, 5));
    room1.executor.send({ type: 'unbind' });
    await Promise.all(room1.sockets.map((s) => s.next((f) => f.type === 'agent_audio_end')));
    const spoken = scenario('bind_unbind_with_audio').every_socket_receives;
    for (const [i, s] of room1.sockets.entries()) expect(kinds(s.received.slice(voiceFrom[i]))).toEqual(spoken);

    // an executor leaving mid-call: the others see the turn end, the model hears why
    room1 = await trio();
    room1.executor.socket.on('message', (data: Buffer, binary) => {
      if (!binary && (JSON.parse(String(data)) as { type: string }).type === 'tool_call') room1.executor.socket.terminate();
    });
    const others = await turnOf('executor_leaves_mid_call', room1.page, [room1.headset, room1.page]);
    for (const seen of others) expect(seen).toEqual(scenario('executor_leaves_mid_call').others_receive);
    expect(model.requests.at(-1)!.toolResults[0]).toMatchObject({ isError: true });
    expect(model.requests.at(-1)!.toolResults[0]!.text).toContain(`executing client ${room1.executor.clientId} disconnected before replying to set_room_scene`);

    expect(all.flatMap((s) => protocolProblems(s.received))).toEqual([]);
    await Promise.all(all.map((s) => s.close()));
    await host.stop();
    await model.close();
    await speech.close();
  });
});

const FIXTURE_AUDIO = { kind: 'audio', rate: 48000, format: 's16le', channels: 1 };
