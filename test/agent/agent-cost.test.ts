/**
 * @module agent-cost.test
 * What a room's conversation may cost, on a host with a scripted chat-completions server: a room
 * holds a conversation slot only while a turn runs or waits (two rooms that spoke once leave a
 * third room of a two-slot host its turn); at most 8 turns wait, the rest refused at once with no
 * model call; a request carries at most --agent-context-bytes of the conversation (oldest turns
 * left out, with a note); a refused tool call is kept without its arguments; at most 32 tool calls
 * run in one step; unparsable arguments are refused to the model, not run; a late joiner's
 * `history` stays within its bound; and `/metrics` shows the bytes sent to the provider by room.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { LEFT_OUT_NOTE } from '../../core/agent/context-bound.ts';
import { HISTORY_CHARS } from '../../core/history/conversation-record.ts';
import { connectAgent } from '../helpers/agent-client.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';

const CONTEXT = 64 * 1024;
let model: ScriptedModel;
const server = fileTestApp(async () => {
  model = await startScriptedModel('openai');
  return { agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url, agentMaxRooms: 2, agentContextBytes: CONTEXT };
});
afterAll(() => model?.close());

type Message = { role: string; content: unknown; tool_calls?: { function: { arguments: string } }[] };
const messagesOf = (i: number) => model.requests[i]!.body.messages as Message[];
const toolBytes = (i: number) => Buffer.byteLength(JSON.stringify(model.requests[i]!.body.tools));

describe('the bounds on what a conversation costs', () => {
  it('holds a slot only while a turn runs or waits', async () => {
    model.answer(() => ({ text: ['ok'] }));
    const sockets = await Promise.all([room('r1'), room('r2'), room('r3')].map((r) => connectAgent(server.url, r)));
    for (const socket of sockets.slice(0, 2)) {
      socket.send({ type: 'text', text: 'once' });
      await socket.next((f) => f.type === 'agent_text_done');
    }
    // Both rooms keep their sockets open, idle: the third room's turn is served.
    sockets[2]!.send({ type: 'text', text: 'my turn' });
    await sockets[2]!.next((f) => f.type === 'agent_text_done');
    expect(sockets[2]!.frames().filter((f) => f.type === 'error')).toEqual([]);
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('lets at most 8 turns wait in a room and refuses the rest at once, without asking the model', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.answer(() => ({ text: ['ok'], hold: held }));
    const before = model.requests.length;
    const a = await connectAgent(server.url, room('flood'));
    for (let i = 0; i < 30; i++) a.send({ type: 'text', text: `flood ${i}` });
    await a.next((f) => f.type === 'turn_queued' && f.position === 8);
    const refused = await a.next((f) => f.type === 'error');
    expect(refused.message).toBe('at most 8 turns wait in a room (--agent-max-queued): this one is refused; send it again once the agent has answered');
    release();
    for (let done = 0; done < 9; done++) await a.next((f) => f.type === 'agent_text_done');
    const frames = a.frames();
    expect(frames.filter((f) => f.type === 'turn_queued')).toHaveLength(8);
    expect(frames.filter((f) => f.type === 'error')).toHaveLength(21);
    expect(model.requests.length - before).toBe(9);
    await a.close();
  });

  it('sends at most --agent-context-bytes of the conversation, oldest turns first left out, and says so', async () => {
    model.answer(() => ({ text: ['noted'] }));
    const a = await connectAgent(server.url, room('context'));
    const from = model.requests.length;
    for (let i = 0; i < 6; i++) {
      a.send({ type: 'text', text: `turn ${i} ${'x'.repeat(20_000)}` });
      await a.next((f) => f.type === 'agent_text_done');
    }
    for (let i = from; i < model.requests.length; i++) {
      const texts = JSON.stringify(messagesOf(i).slice(1));
      expect(Buffer.byteLength(texts)).toBeLessThan(CONTEXT + 4096);
      expect(model.requests[i]!.bytes).toBeLessThan(CONTEXT + toolBytes(i) + 8192);
    }
    const last = messagesOf(model.requests.length - 1);
    expect(JSON.stringify(last)).not.toContain('turn 0 ');
    expect(JSON.stringify(last)).toContain('turn 5 ');
    expect(JSON.stringify(last[1]!.content)).toContain(LEFT_OUT_NOTE);
    await a.close();
  });

  it('keeps a refused call without its arguments, refuses arguments that do not parse, runs at most 32 calls a step', async () => {
    const a = await connectAgent(server.url, room('calls'));
    const from = model.requests.length;
    model.answer((request) => {
      if (request.toolResults.length > 0) return { text: ['done'] };
      if (request.lastUserText === 'big') return { calls: [{ name: 'list_specimens', args: { pad: 'y'.repeat(300_000) } }] };
      if (request.lastUserText === 'broken') return { calls: [{ name: 'list_specimens', args: {}, raw: '{"tag": ' }] };
      return { calls: Array.from({ length: 40 }, () => ({ name: 'list_specimens', args: {} })) };
    });
    a.send({ type: 'text', text: 'big' });
    await a.next((f) => f.type === 'agent_text_done');
    expect(model.requests[from + 1]!.toolResults[0]).toMatchObject({ isError: true });
    expect(model.requests[from + 1]!.toolResults[0]!.text).toContain('past the 262144 a tool call may carry');
    // The refused call's 300 kB stay out of every later request.
    expect(model.requests[from + 1]!.bytes).toBeLessThan(CONTEXT);
    expect(messagesOf(from + 1).find((m) => m.tool_calls)!.tool_calls![0]!.function.arguments).toBe('{}');

    a.send({ type: 'text', text: 'broken' });
    await a.next((f) => f.type === 'agent_text_done');
    const broken = model.requests.at(-1)!.toolResults[0]!;
    expect(broken.isError).toBe(true);
    expect(broken.text).toContain('refused: the arguments of list_specimens are not a JSON object');

    const statuses = a.frames().length;
    a.send({ type: 'text', text: 'many' });
    await a.next((f) => f.type === 'agent_text_done');
    const results = model.requests.at(-1)!.toolResults;
    expect(results).toHaveLength(40);
    expect(results.filter((r) => r.text.includes('not run: at most 32 tool calls run in one step'))).toHaveLength(8);
    expect(a.frames().slice(statuses).filter((f) => f.type === 'status' && String(f.text).startsWith('Using the'))).toHaveLength(32);
    await a.close();
  });

  it('keeps a late joiner’s history within its bound, and shows the bytes sent to the provider by room', async () => {
    model.answer(() => ({ text: ['z'.repeat(100_000)] }));
    const r = room('history');
    const a = await connectAgent(server.url, r);
    for (let i = 0; i < 4; i++) {
      a.send({ type: 'text', text: 'w'.repeat(100_000) });
      await a.next((f) => f.type === 'agent_text_done');
    }
    const late = await connectAgent(server.url, r);
    const history = late.frames()[0]!;
    const chars = (history.entries as { text: string }[]).reduce((n, e) => n + e.text.length, 0);
    expect(chars).toBeLessThanOrEqual(HISTORY_CHARS + 200);
    expect((history.entries as unknown[]).length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const line = metrics.split('\n').find((l) => l.startsWith(`vitrine_agent_provider_bytes_total{room="${r}"}`));
    expect(Number(line?.split(' ').at(-1))).toBeGreaterThan(400_000);
    await Promise.all([a.close(), late.close()]);
  });
});
