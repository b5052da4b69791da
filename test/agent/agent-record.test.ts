/**
 * @module agent-record.test
 * A room's conversation as the room's record carries it, on a host whose model is a scripted
 * server on loopback: each turn an entry of the room's log with `by` (and the room's
 * `conversation` event); a replay into another room plays the turns there (a socket joining it
 * hears them, and one already in it has them in its next `history`); setting a room to another's
 * moment sets its conversation; a snapshot carries the conversation it was taken with.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectAgent } from '../helpers/agent-client.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

let model: ScriptedModel;
const server = fileTestApp(async () => {
  model = await startScriptedModel('openai');
  return { agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url };
});
afterAll(() => model?.close());

type Entry = { seq: number; ts: number; by: string; type: string; role?: string; text?: string; op?: string };
const log = async (r: string) => ((await (await fetch(`${server.url}/api/rooms/${r}/log`)).json()) as { entries: Entry[] }).entries;
const said = (entries: Entry[]) => entries.filter((e) => e.type === 'conversation').map((e) => (e.op ? `${e.by}: end` : `${e.by} ${e.role}: ${e.text}`));

/** Talks in a fresh room: two turns, and answers; the room's id. */
async function talked(): Promise<string> {
  model.answer((request) => ({ text: [`Re: ${request.lastUserText}`] }));
  const r = room('said');
  const a = await connectAgent(server.url, r, '?name=ada');
  for (const text of ['one?', 'two?']) {
    a.send({ type: 'text', text });
    await a.next((f) => f.type === 'agent_text_done');
  }
  await a.close();
  return r;
}

describe('the conversation in the room’s record', () => {
  it('logs each turn with by, and tells the room’s followers', async () => {
    const r = room('said');
    const follower = await openStream(`${server.url}/api/rooms/${r}/events`);
    model.answer(() => ({ text: ['Hi.'] }));
    const a = await connectAgent(server.url, r);
    a.send({ type: 'text', text: 'hello?' });
    await a.next((f) => f.type === 'agent_text_done');
    const event = await follower.next((e) => e.event === 'conversation' && (e.data as Entry).role === 'agent');
    expect(event.data).toMatchObject({ type: 'conversation', by: 'agent', role: 'agent', text: 'Hi.' });
    a.send({ type: 'end_conversation' });
    await waitFor(async () => ((await log(r)).some((e) => e.op === 'end') ? true : undefined), 'the end in the log');
    expect(said(await log(r))).toEqual(['anonymous user: hello?', 'agent agent: Hi.', 'anonymous: end']);
    follower.close();
    await a.close();
  });

  it('plays a room’s conversation into another, and sets a room to another’s moment', async () => {
    const from = await talked();
    const into = room('into');
    const waiting = await connectAgent(server.url, into);
    const play = await fetch(`${server.url}/api/rooms/${into}/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from, speed: 4 }),
    });
    expect(play.status).toBeLessThan(300);
    await waitFor(async () => (said(await log(into)).length === 4 ? true : undefined), 'the turns played');
    expect(said(await log(into))).toEqual(said(await log(from)));
    const joiner = await connectAgent(server.url, into);
    expect(joiner.frames()[0]!.entries).toEqual([
      { role: 'user', text: 'one?' },
      { role: 'agent', text: 'Re: one?' },
      { role: 'user', text: 'two?' },
      { role: 'agent', text: 'Re: two?' },
    ]);
    // The room held by the socket already in it follows: its next joiner's history is the same.
    expect((await connectAgent(server.url, into)).frames()[0]!.entries).toHaveLength(4);
    await waiting.close();
    await joiner.close();

    const moment = room('moment');
    const second = (await log(from)).filter((e) => e.type === 'conversation')[1]!;
    const set = await fetch(`${server.url}/api/rooms/${moment}/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from, at: second.ts }),
    });
    expect(set.status).toBeLessThan(300);
    await waitFor(async () => (said(await log(moment)).length >= 2 ? true : undefined), 'the moment set');
    const socket = await connectAgent(server.url, moment);
    expect(socket.frames()[0]!.entries).toEqual([
      { role: 'user', text: 'one?' },
      { role: 'agent', text: 'Re: one?' },
    ]);
    await socket.close();
  });

  it('carries the conversation in a snapshot of the room', async () => {
    const r = await talked();
    const taken = (await (await fetch(`${server.url}/api/rooms/${r}/snapshots`, { method: 'POST' })).json()) as { id: string };
    const snapshot = (await (await fetch(`${server.url}/api/snapshots/${taken.id}`)).json()) as { conversation?: unknown };
    expect(snapshot.conversation).toEqual([
      { role: 'user', text: 'one?' },
      { role: 'agent', text: 'Re: one?' },
      { role: 'user', text: 'two?' },
      { role: 'agent', text: 'Re: two?' },
    ]);
    const quiet = room('quiet');
    const plain = (await (await fetch(`${server.url}/api/rooms/${quiet}/snapshots`, { method: 'POST' })).json()) as { id: string };
    expect(Object.keys((await (await fetch(`${server.url}/api/snapshots/${plain.id}`)).json()) as object)).not.toContain('conversation');
  });
});
