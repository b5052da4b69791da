/**
 * @module agent-executor.test
 * Who runs a headset call: the oldest socket whose person may write the room. A page of another
 * origin that may only read (`--cors-origin '*'`) joins first and is passed over; with only such
 * sockets in the room, the call fails at once, naming the reason, instead of waiting 30 s.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectAgent } from '../helpers/agent-client.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel } from '../helpers/scripted-model.ts';

let model: ScriptedModel;
const server = fileTestApp(async () => {
  model = await startScriptedModel('openai');
  return { agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url, corsOrigin: '*' };
});
afterAll(() => model?.close());

const reader = (r: string) => connectAgent(server.url, r, '', { headers: { origin: 'https://elsewhere.example' } });

describe('the executor of a headset call', () => {
  it('is the oldest socket that may write; with none, the call fails at once naming why', async () => {
    const switching = { calls: [{ name: 'set_active_specimen', args: { index: 0 } }] };
    model.answer((request) => (request.toolResults.length > 0 ? { text: [request.toolResults[0]!.text] } : switching));
    const r = room('executor');
    const viewer = await reader(r);
    const writer = await connectAgent(server.url, r);
    writer.headset();
    writer.send({ type: 'text', text: 'switch' });
    const call = await viewer.next((f) => f.type === 'tool_call');
    expect(call.executor).toBe(writer.clientId);
    await writer.next((f) => f.type === 'agent_text_done');
    await writer.close();

    const alone = room('readers-only');
    const only = await reader(alone);
    const b = await connectAgent(server.url, alone);
    b.send({ type: 'text', text: 'switch' });
    await b.next((f) => f.type === 'tool_call');
    await b.close();
    // Only the reader is left: the next call is refused (not sent to the reader to time out).
    const res = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'set_active_specimen', arguments: { room: alone, index: 0 } } }),
    });
    const text = await res.text();
    expect(text).toContain('belongs to someone who may write it');
    expect(only.frames().filter((f) => f.type === 'tool_call')).toHaveLength(1);
    await only.close();
  });
});
