/**
 * @module agent-conversation.test
 * A room's conversation on a host whose model is a scripted chat-completions server on loopback
 * (streamed): a reply streams to every socket of the room, turns run one after another (a turn
 * sent while one runs hears its place), an interrupt stops the running turn, ending the
 * conversation starts a new one, a late joiner hears the conversation; the agent's tools run in
 * the host as the turn's user (a computed volume loaded into the headsets by its `load_id`, with
 * `type: "volume"`), a capture reaches the model as a picture, an executor that leaves is told
 * to the model; a provider's refusal (or a 200 that is not a stream) is an `error` frame in its
 * words without the key; a host past its conversations refuses a turn at once. (A turn past its time, on a fake clock: test/unit/agent/.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectAgent, type AgentClient, type Frame } from '../helpers/agent-client.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../helpers/scripted-model.ts';

let model: ScriptedModel;
const server = fileTestApp(async () => {
  model = await startScriptedModel('openai');
  return { agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url, agentTurnTimeoutSeconds: 5, agentMaxRooms: 6 };
});
afterAll(() => model?.close());

/** Answers each request by the last user words: `script[words]` gives the steps, one per request of that turn. */
function scripted(script: Record<string, ScriptedReply[]>): void {
  const step = new Map<string, number>();
  model.answer((request) => {
    const key = request.lastUserText;
    const steps = script[key];
    if (!steps) return { text: [`(unscripted: ${key})`] };
    const at = step.get(key) ?? 0;
    step.set(key, at + 1);
    return steps[Math.min(at, steps.length - 1)]!;
  });
}

const types = (frames: Frame[]) => frames.map((f) => f.type);
const turnOf = (client: AgentClient, from: number) => types(client.frames().slice(from));

describe('a room’s conversation', () => {
  it('streams a reply to every socket, queues a turn sent meanwhile, and tells a late joiner', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    scripted({ 'first?': [{ text: ['Hel', 'lo ', 'there.'], hold: held }], 'second?': [{ text: ['Again.'] }] });
    const r = room('talk');
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r, '?kind=page');
    a.send({ type: 'text', text: 'first?' });
    await b.next((f) => f.type === 'status' && f.text === 'thinking');
    b.send({ type: 'text', text: 'second?' });
    expect(await b.next((f) => f.type === 'turn_queued')).toEqual({ type: 'turn_queued', position: 1 });
    release();
    await a.next((f) => f.type === 'agent_text_done');
    await a.next((f) => f.type === 'agent_text_done');
    const seen = (c: AgentClient) => c.frames().filter((f) => f.type !== 'turn_queued' && f.type !== 'history');
    expect(seen(a)).toEqual(seen(b));
    expect(types(seen(a))).toEqual(['status', 'agent_text', 'agent_text', 'agent_text', 'agent_text_done', 'status', 'agent_text', 'agent_text_done']);
    expect(seen(a).filter((f) => f.type === 'agent_text').map((f) => f.text).join('')).toBe('Hello there.Again.');
    const late = await connectAgent(server.url, r);
    expect(late.frames()[0]).toEqual({
      type: 'history',
      client_id: late.clientId,
      entries: [
        { role: 'user', text: 'first?' },
        { role: 'user', text: 'second?' },
        { role: 'agent', text: 'Hello there.' },
        { role: 'agent', text: 'Again.' },
      ],
    });
    const log = (await (await fetch(`${server.url}/api/rooms/${r}/log`)).json()) as { entries: Record<string, unknown>[] };
    expect(log.entries.filter((e) => e.type === 'conversation').map((e) => [e.by, e.role, e.text])).toEqual([
      ['anonymous', 'user', 'first?'],
      ['anonymous', 'user', 'second?'],
      ['agent', 'agent', 'Hello there.'],
      ['agent', 'agent', 'Again.'],
    ]);
    // The model was given the conversation so far with the second turn.
    expect(model.requests.at(-1)!.body.messages).toMatchObject([
      { role: 'system' },
      { role: 'user', content: 'first?' },
      { role: 'assistant', content: 'Hello there.' },
      { role: 'user', content: 'second?' },
    ]);
    await Promise.all([a.close(), b.close(), late.close()]);
  });

  it('stops the running turn on interrupt, and starts afresh after end_conversation', async () => {
    let release!: () => void;
    scripted({ 'long?': [{ text: ['Once upon'], hold: new Promise<void>((resolve) => (release = resolve)) }], 'fresh?': [{ text: ['New.'] }] });
    const r = room('talk');
    const a = await connectAgent(server.url, r);
    a.send({ type: 'text', text: 'long?' });
    await a.next((f) => f.type === 'status' && f.text === 'thinking');
    a.send({ type: 'interrupt' });
    expect(await a.next((f) => f.type === 'status' && f.text === 'interrupted')).toEqual({ type: 'status', text: 'interrupted' });
    release();
    a.send({ type: 'end_conversation' });
    const from = a.frames().length;
    a.send({ type: 'text', text: 'fresh?' });
    await a.next((f) => f.type === 'agent_text_done');
    expect(turnOf(a, from)).toEqual(['status', 'agent_text', 'agent_text_done']);
    expect(model.requests.at(-1)!.body.messages).toMatchObject([{ role: 'system' }, { role: 'user', content: 'fresh?' }]);
    const late = await connectAgent(server.url, r);
    expect(late.frames()[0]!.entries).toEqual([{ role: 'user', text: 'fresh?' }, { role: 'agent', text: 'New.' }]);
    await Promise.all([a.close(), late.close()]);
  });

  it('runs tools in the host and on the executor: a computed volume loaded by its load_id, a capture seen by the model', async () => {
    const r = room('tools');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 7, 7, 7, 0xff, 0xd9]);
    // Each step answers the one before: the load takes the load_id the computation answered.
    let loadId = '';
    model.answer((request) => {
      const step = request.toolResults.length === 0 ? 0 : request.toolResults[0]!.text.includes('load_id') ? 1 : request.toolResults[0]!.images > 0 ? 3 : 2;
      if (step === 1) loadId = (JSON.parse(request.toolResults[0]!.text) as { load_id: string }).load_id;
      const steps: ScriptedReply[] = [
        { text: ['Computing.'], calls: [{ name: 'compute', args: { function: 'ramp', params: { n: 6 } } }] },
        { calls: [{ name: 'load_specimen', args: { specimen_id: loadId } }] },
        { calls: [{ name: 'capture_viewport', args: {} }] },
        { text: ['It is loaded.'] },
      ];
      return steps[step]!;
    });
    const a = await connectAgent(server.url, r);
    a.headset(jpeg);
    const b = await connectAgent(server.url, r);
    b.send({ type: 'text', text: 'show me a ramp' });
    const load = await b.next((f) => f.type === 'tool_call' && f.name === 'load_specimen');
    expect(load).toMatchObject({ args: { specimen_id: loadId, type: 'volume' }, executor: a.clientId });
    expect(loadId).toMatch(new RegExp(`^${r}\\.ramp-`));
    // Served at once by its id.
    const data = await fetch(`${server.url}/api/specimens/${loadId}/data`);
    expect(data.status).toBe(200);
    await b.next((f) => f.type === 'agent_text_done');
    expect(b.frames().filter((f) => f.type === 'status').map((f) => f.text)).toEqual([
      'thinking',
      'Using the compute tool...',
      'Using the load_specimen tool...',
      'Using the capture_viewport tool...',
    ]);
    const last = model.requests.at(-1)!;
    expect(last.toolResults).toEqual([expect.objectContaining({ images: 1, isError: false })]);
    const picture = JSON.stringify(last.body.messages);
    expect(picture).toContain(jpeg.toString('base64'));
    await Promise.all([a.close(), b.close()]);
  });

  it('tells the model when the executor leaves during its call', async () => {
    const r = room('tools');
    model.answer((request) => (request.toolResults.length === 0 ? { calls: [{ name: 'set_room_scene', args: { name: 'lab' } }] } : { text: ['Noted.'] }));
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r);
    b.send({ type: 'text', text: 'change the scene' });
    await a.next((f) => f.type === 'tool_call');
    await a.close();
    await b.next((f) => f.type === 'agent_text_done');
    expect(model.requests.at(-1)!.toolResults).toEqual([
      expect.objectContaining({ isError: true, text: `error: executing client ${a.clientId} disconnected before replying to set_room_scene` }),
    ]);
    await b.close();
  });

  it('turns a provider’s refusal into an error frame in its words, never with the key', async () => {
    const r = room('fail');
    model.answer(() => ({ status: 401, error: 'Incorrect API key provided: sk-proj-abc123secretkey456. You can find your API key at https://x' }));
    const a = await connectAgent(server.url, r);
    a.send({ type: 'text', text: 'hello?' });
    const error = await a.next((f) => f.type === 'error');
    expect(error.message).toContain('answered 401: Incorrect API key provided');
    expect(error.message).not.toContain('abc123secretkey456');
    await a.next((f) => f.type === 'agent_text_done');
    for (const status of [429, 500, 503]) {
      model.answer(() => ({ status, error: `scripted ${status}` }));
      a.send({ type: 'text', text: `again ${status}` });
      expect((await a.next((f) => f.type === 'error')).message).toBe(`the chat-completions server answered ${status}: scripted ${status}`);
    }
    // A 200 that is not the stream asked for ends the turn, named, rather than as an empty reply.
    model.answer(() => ({ plain: { contentType: 'text/html', body: '<html>a proxy’s page</html>' } }));
    a.send({ type: 'text', text: 'a page?' });
    expect((await a.next((f) => f.type === 'error')).message).toBe('the chat-completions server answered 200 with text/html, not the event stream asked for');
    await a.close();
  });

  it('refuses a turn past --agent-max-rooms conversations at once, and serves it once one ends', async () => {
    model.answer(() => ({ text: ['ok'], hold: new Promise(() => {}) }));
    const rooms = await Promise.all(Array.from({ length: 6 }, () => connectAgent(server.url, room('full'))));
    for (const client of rooms) client.send({ type: 'text', text: 'hold' });
    await Promise.all(rooms.map((client) => client.next((f) => f.type === 'status' && f.text === 'thinking')));
    const extra = await connectAgent(server.url, room('full'));
    extra.send({ type: 'text', text: 'one more' });
    expect((await extra.next((f) => f.type === 'error')).message).toBe(
      'this host holds its most conversations at once (6, --agent-max-rooms): try again once one ends',
    );
    rooms[0]!.send({ type: 'end_conversation' });
    await rooms[0]!.next((f) => f.type === 'status' && f.text === 'interrupted');
    model.answer(() => ({ text: ['served'] }));
    extra.send({ type: 'text', text: 'one more' });
    expect((await extra.next((f) => f.type === 'agent_text')).text).toBe('served');
    for (const client of rooms) client.send({ type: 'end_conversation' });
    await Promise.all([...rooms, extra].map((client) => client.close()));
  });
});
