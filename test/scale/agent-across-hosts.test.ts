/**
 * @module agent-across-hosts.test
 * A room's agent on a Redis service of two hosts (real hosts on loopback, one real Redis, a
 * scripted chat-completions server as the model): one conversation per room across the hosts.
 * Sockets of one room on different hosts hear the same frames in the same order; a turn sent
 * through either host queues behind the running one; the executor is the oldest socket of the
 * service even when the room's conversation is held by the other host, its headset tool calls
 * reach it and its tool result and screenshot resolve them from there; an MCP client's call made
 * on the host that does not hold the room reaches the executor too, and fails within the second
 * once the executor leaves; client ids are never given twice across the hosts; and when the host
 * holding the room goes, the other takes the room over and its sockets talk on.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { connectAgent, type AgentClient, type Frame } from '../helpers/agent-client.ts';
import { connectMcp, type ToolAnswer } from '../helpers/mcp-client.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { room } from '../helpers/room.ts';
import { startScriptedModel, type ScriptedModel, type ScriptedReply } from '../helpers/scripted-model.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

let redis: RedisServer;
let model: ScriptedModel;
const hosts: { app: FastifyInstance; url: string }[] = [];

/** A host of the service: no plugins (the tests load the specimens folder's own files), no compute. */
async function startHost(specimensDir: string, pluginsDir: string): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createApp({
    pluginsDir, specimensDir, logLevel: false, viewer: false, poolSize: 1, compute: 0, redis: redis.url,
    agentModel: 'scripted', agentProvider: 'openai', agentUrl: model.url, agentTurnTimeoutSeconds: 20,
  });
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

beforeAll(async () => {
  [redis, model] = await Promise.all([startRedis(), startScriptedModel('openai')]);
  const [specimens, plugins] = await Promise.all([makeSpecimensDir(), mkdtemp(joinPath(tmpdir(), 'vitrine-no-plugins-'))]);
  hosts.push(...(await Promise.all([startHost(specimens, plugins), startHost(specimens, plugins)])));
}, 60_000);
afterAll(async () => {
  await Promise.all(hosts.map((h) => h.app.close()));
  await model?.close();
  await redis?.stop();
});

const join = (host: number, r: string, query = ''): Promise<AgentClient> => connectAgent(hosts[host]!.url, r, query);

/** What a socket heard after its history, but the turn_queued meant for the socket that sent it. */
const heard = (client: AgentClient) => client.frames().filter((f) => f.type !== 'history' && f.type !== 'turn_queued');
const types = (frames: Frame[]) => frames.map((f) => f.type);

describe('a room’s agent on a service of two hosts', () => {
  it('is one conversation: the same frames on both hosts, turns queued in one order, headset tools on the oldest socket of the service', async () => {
    const r = room('svc');
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 9, 9, 0xff, 0xd9]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    model.answer((request) => {
      if (request.lastUserText === 'and then?') return { text: ['Then ', 'nothing.'] };
      const steps: ScriptedReply[] = [
        { text: ['Loading.'], calls: [{ name: 'load_specimen', args: { specimen_id: 'vol' } }] },
        { calls: [{ name: 'capture_viewport', args: {} }] },
        { text: ['I see ', 'it.'], hold: held },
      ];
      return steps[request.toolResults.length === 0 ? 0 : request.toolResults[0]!.images > 0 ? 2 : 1]!;
    });
    // The first socket is on host 1, which so holds the room; once it leaves, the oldest socket
    // of the room is on host 0.
    const first = await join(1, r, '?kind=page');
    const a = await join(0, r);
    a.headset(jpeg);
    const b = await join(1, r);
    await first.close();
    b.send({ type: 'text', text: 'show me the volume' });
    const load = await b.next((f) => f.type === 'tool_call' && f.name === 'load_specimen');
    expect(load).toMatchObject({ args: { specimen_id: 'vol', type: 'volume' }, executor: a.clientId });
    await b.next((f) => f.type === 'tool_call' && f.name === 'capture_viewport');
    // A turn sent meanwhile through the other host waits its place.
    a.send({ type: 'text', text: 'and then?' });
    expect(await a.next((f) => f.type === 'turn_queued')).toEqual({ type: 'turn_queued', position: 1 });
    release();
    await a.next((f) => f.type === 'agent_text_done');
    await a.next((f) => f.type === 'agent_text_done');
    await b.next((f) => f.type === 'agent_text_done');
    await b.next((f) => f.type === 'agent_text_done');
    expect(heard(a)).toEqual(heard(b));
    expect(types(heard(a))).toEqual([
      'status', 'agent_text', 'status', 'tool_call', 'status', 'tool_call', 'agent_text', 'agent_text', 'agent_text_done',
      'status', 'agent_text', 'agent_text', 'agent_text_done',
    ]);
    // The executor's screenshot crossed to the host running the turn and reached the model.
    const seen = model.requests.find((q) => q.toolResults[0]?.images === 1);
    expect(JSON.stringify(seen?.body.messages)).toContain(jpeg.toString('base64'));
    const late = await join(0, r);
    expect(late.frames()[0]!.entries).toEqual([
      { role: 'user', text: 'show me the volume' },
      { role: 'user', text: 'and then?' },
      { role: 'agent', text: 'Loading.I see it.' },
      { role: 'agent', text: 'Then nothing.' },
    ]);
    await Promise.all([a.close(), b.close(), late.close()]);
  });

  it('runs an MCP client’s headset call made on either host, and fails it within the second once its executor leaves', async () => {
    const r = room('svc');
    const holder = await join(0, r, '?kind=page');
    const executor = await join(1, r);
    await holder.close();
    const waiter = await join(0, r);
    // Made on host 1, which does not hold the room: the holder sends it to the executor on host 1.
    const mcp = await connectMcp(hosts[1]!.url);
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: { room: r, ...args } }) as Promise<ToolAnswer>;
    const answered = call('load_specimen', { specimen_id: 'tri' });
    const toExecutor = await executor.next((f) => f.type === 'tool_call');
    expect(toExecutor).toMatchObject({ name: 'load_specimen', args: { specimen_id: 'tri', type: 'mesh' }, executor: executor.clientId });
    expect(await waiter.next((f) => f.type === 'tool_call')).toEqual(toExecutor);
    waiter.send({ type: 'tool_result', request_id: toExecutor.request_id, result: { ok: true } });
    expect((await waiter.next((f) => f.type === 'error')).message).toContain('only its tool_result counts');
    executor.send({ type: 'tool_result', request_id: toExecutor.request_id, result: { ok: true, shown: 'tri' } });
    expect((await answered).structuredContent).toEqual({ ok: true, shown: 'tri' });
    const left = call('remove_specimen', { index: 0 });
    await executor.next((f) => f.type === 'tool_call' && f.name === 'remove_specimen');
    const leaving = performance.now();
    executor.socket.terminate();
    expect((await left).content[0]!.text).toBe(`502: executing client ${executor.clientId} disconnected before replying to remove_specimen`);
    expect(performance.now() - leaving).toBeLessThan(1000);
    // The socket left is now the executor, on the other host.
    const next = call('set_room_scene', { name: 'black' });
    expect(await waiter.next((f) => f.type === 'tool_call' && f.name === 'set_room_scene')).toMatchObject({ executor: waiter.clientId });
    await waiter.close();
    expect((await next).content[0]!.text).toContain('disconnected before replying to set_room_scene');
    await mcp.close();
  });

  it('never gives a client id twice across the hosts', async () => {
    const r = room('svc');
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = await join(i % 2, r);
      ids.push(client.clientId);
      if (i % 3 === 0) await client.close();
    }
    // Each socket's id is larger than every id given before it, on either host.
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
  });

  // Last: it stops host 1.
  it('goes on through the other host once the host holding the room goes', async () => {
    const r = room('svc');
    model.answer(() => ({ text: ['Still ', 'here.'] }));
    const gone = await join(1, r);
    const stays = await join(0, r);
    gone.send({ type: 'text', text: 'hello' });
    await stays.next((f) => f.type === 'agent_text_done');
    await hosts[1]!.app.close();
    await gone.closed;
    // Host 0 takes the room over: its socket hears the conversation again, from the log.
    const again = await stays.next((f) => f.type === 'history');
    expect(again).toEqual({ type: 'history', client_id: stays.clientId, entries: [{ role: 'user', text: 'hello' }, { role: 'agent', text: 'Still here.' }] });
    stays.send({ type: 'text', text: 'and now?' });
    await stays.next((f) => f.type === 'agent_text_done');
    expect(model.requests.at(-1)!.lastUserText).toBe('and now?');
    await stays.close();
  });
});
