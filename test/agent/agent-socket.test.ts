/**
 * @module agent-socket.test
 * The agent socket on a host with no model: the socket joins (`history` first, client ids that
 * only grow and are never given again), every frame it cannot read is answered with an `error`
 * frame naming what is wrong and the socket stays open, a turn answers that no model is
 * configured, the floor that voice is off; a host started again on its data folder gives no
 * client id twice; headset tools (here from an MCP client) reach every
 * socket with the oldest as executor, only the executor's `tool_result` counts, a capture is
 * answered by the executor's next screenshot, and an executor that leaves fails its calls at once.
 * The roster lists agent sockets with their client id and marks the executor. Hostile frames
 * (garbage, lying headers, 16 MiB, a thousand `bind`s at once, another socket's `tool_result`)
 * get an `error` or a 1009 close and leave the room's other sockets served. (The executor rules,
 * executors leaving at random moments included, are tested in memory: test/unit/agent/.)
 */
import { describe, expect, it } from 'vitest';
import { binaryFrame, connectAgent } from '../helpers/agent-client.ts';
import { createTestApp, fileTestApp } from '../helpers/create-test-app.ts';
import { connectMcp, type ToolAnswer } from '../helpers/mcp-client.ts';
import { room } from '../helpers/room.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp();


const presence = async (r: string) =>
  ((await (await fetch(`${server.url}/api/rooms/${r}/presence`)).json()) as { peers: { name: string; client_id?: number; executor?: boolean }[] }).peers;

describe('the agent socket without a model', () => {
  it('sends history first, with client ids that grow and are never given again', async () => {
    const r = room('agent');
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r, '?name=bo&kind=page');
    expect(a.frames()[0]).toEqual({ type: 'history', entries: [], client_id: 0 });
    expect(b.frames()[0]).toEqual({ type: 'history', entries: [], client_id: 1 });
    await a.close();
    const again = await connectAgent(server.url, r);
    expect(again.clientId).toBe(2);
    await b.close();
    await again.close();
    // The room was let go once empty; its ids were not.
    const later = await connectAgent(server.url, r);
    expect(later.clientId).toBe(3);
    await later.close();
  });

  it('goes on counting client ids where it left off once started again on its data folder', async () => {
    const dataDir = tempDataDir();
    const r = room('agent');
    const ids: number[] = [];
    for (let start = 0; start < 2; start++) {
      // No plugins: only the socket is asked for.
      const app = await createTestApp({ dataDir, pluginsDir: null, specimensDir: null });
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      for (let i = 0; i < 2; i++) {
        const socket = await connectAgent(url, r);
        ids.push(socket.clientId);
        await socket.close();
      }
      await app.close();
    }
    expect(ids).toEqual([0, 1, 2, 3]);
  });

  it('answers every frame it cannot read with an error naming what is wrong, and stays open', async () => {
    const a = await connectAgent(server.url, room('agent'));
    const cases: [string | Buffer, string][] = [
      ['garbage', 'invalid JSON'],
      ['[1,2]', 'a frame must be a JSON object'],
      ['{"text":"hi"}', "frame must have a 'type' key"],
      ['{"type":7}', 'type must be a string'],
      ['{"type":"dance"}', "unknown frame type 'dance'"],
      ['{"type":"audio"}', "type 'audio' travels only in binary frames"],
      ['{"type":"text","text":""}', "text frame requires non-empty 'text' field"],
      ['{"type":"tool_result","result":{}}', "tool_result frame requires a 'request_id' string"],
      ['{"type":"tool_result","request_id":"x"}', "tool_result frame requires 'result' field"],
      ['{"type":"tool_result","request_id":"x","result":{}}', "no tool call waits for request_id 'x'"],
      [Buffer.from([1, 0]), 'truncated frame: less than 4 bytes'],
      [Buffer.concat([Buffer.from([200, 0, 0, 0]), Buffer.from('{"kind":"screenshot"}')]), 'truncated frame: the header says 200 bytes, 21 follow'],
      [binaryFrame({ kind: 'video' }), "unknown binary kind 'video'"],
      [Buffer.concat([Buffer.from([3, 0, 0, 0]), Buffer.from('{{{')]), 'invalid header JSON'],
    ];
    for (const [frame, words] of cases) {
      a.socket.send(frame);
      const error = await a.next((f) => f.type === 'error', `the error for ${String(frame).slice(0, 30)}`);
      expect(error.message).toContain(words);
    }
    a.send({ type: 'text', text: 'hello' });
    expect(await a.next((f) => f.type === 'error')).toEqual({ type: 'error', message: 'no agent model is configured on this host' });
    a.send({ type: 'bind' });
    expect(await a.next((f) => f.type === 'error')).toEqual({ type: 'error', message: 'voice is not enabled on this server' });
    a.sendBinary({ kind: 'audio', rate: 48000, format: 's16le', channels: 1 }, Buffer.alloc(960));
    expect(await a.next((f) => f.type === 'error')).toEqual({ type: 'error', message: 'voice is not enabled on this server' });
    a.send({ type: 'screenshot_meta' });
    a.send({ type: 'interrupt' });
    a.send({ type: 'end_conversation' });
    expect(a.socket.readyState).toBe(a.socket.OPEN);
    await a.close();
  });

  it('closes with 1009 a text frame past 1 MiB and a binary frame past 4 MiB, leaving the others be', async () => {
    const r = room('agent');
    const other = await connectAgent(server.url, r);
    const text = await connectAgent(server.url, r);
    text.socket.send(JSON.stringify({ type: 'text', text: 'x'.repeat(1024 * 1024) }));
    expect((await text.closed).code).toBe(1009);
    const binary = await connectAgent(server.url, r);
    binary.sendBinary({ kind: 'screenshot', mime: 'image/jpeg' }, Buffer.alloc(16 * 1024 * 1024));
    expect((await binary.closed).code).toBe(1009);
    other.send('{"type":"dance"}');
    expect((await other.next((f) => f.type === 'error')).message).toBe("unknown frame type 'dance'");
    await other.close();
  });

  it('answers a storm of hostile frames with errors, and the room’s other sockets are still served', async () => {
    const r = room('agent');
    const mcp = await connectMcp(server.url);
    const executor = await connectAgent(server.url, r);
    const hostile = await connectAgent(server.url, r);
    const pending = mcp.callTool({ name: 'set_room_scene', arguments: { room: r, name: 'black' } }) as Promise<ToolAnswer>;
    const call = await hostile.next((f) => f.type === 'tool_call');
    hostile.send({ type: 'tool_result', request_id: call.request_id, result: { ok: true } });
    for (let i = 0; i < 1000; i++) hostile.send({ type: 'bind' });
    hostile.socket.send('\u0000garbage{');
    hostile.socket.send(Buffer.concat([Buffer.from([255, 255, 255, 255]), Buffer.from('{"kind":"screenshot"}')]));
    hostile.send('{"type":"dance"}');
    await hostile.next((f) => f.type === 'error' && f.message === "unknown frame type 'dance'", 'the storm handled');
    const errors = hostile.frames().filter((f) => f.type === 'error');
    expect(errors.some((f) => String(f.message).startsWith('bind faster than'))).toBe(true);
    expect(errors.length).toBe(1000 + 4);
    // The executor still answers its call, and the room's sockets still get frames.
    executor.send({ type: 'tool_result', request_id: call.request_id, result: { ok: true } });
    expect((await pending).structuredContent).toEqual({ ok: true });
    const next = mcp.callTool({ name: 'set_room_scene', arguments: { room: r, name: 'black' } }) as Promise<ToolAnswer>;
    const again = await hostile.next((f) => f.type === 'tool_call' && f.request_id !== call.request_id);
    executor.send({ type: 'tool_result', request_id: again.request_id, result: { ok: true } });
    expect((await next).structuredContent).toEqual({ ok: true });
    hostile.socket.send(JSON.stringify({ type: 'text', text: 'x' }).padEnd(16 * 1024 * 1024, ' '));
    expect((await hostile.closed).code).toBe(1009);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    executor.send('{"type":"dance"}');
    expect((await executor.next((f) => f.type === 'error')).message).toBe("unknown frame type 'dance'");
    await executor.close();
    await mcp.close();
  });

  it('sends headset tools to every socket with the oldest as executor; only its result counts', async () => {
    const r = room('agent');
    const mcp = await connectMcp(server.url);
    const call = (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: { room: r, ...args } }) as Promise<ToolAnswer>;
    expect((await call('set_room_scene', { name: 'black' })).content[0]!.text).toContain(`no headset is connected to the agent socket of room '${r}'`);
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r, '?kind=page&name=bo');
    const peers = await presence(r);
    expect(peers.map((p) => [p.client_id, p.executor ?? false])).toEqual([
      [a.clientId, true],
      [b.clientId, false],
    ]);
    const answer = call('load_specimen', { specimen_id: 'vol' });
    const toA = await a.next((f) => f.type === 'tool_call');
    expect(toA).toMatchObject({ name: 'load_specimen', args: { specimen_id: 'vol', type: 'volume' }, executor: a.clientId });
    const toB = await b.next((f) => f.type === 'tool_call');
    expect(toB).toEqual(toA);
    b.send({ type: 'tool_result', request_id: toB.request_id, result: { ok: true } });
    const refused = `request_id '${toB.request_id as string}' was sent to client ${a.clientId}: only its tool_result counts`;
    expect((await b.next((f) => f.type === 'error')).message).toBe(refused);
    a.send({ type: 'tool_result', request_id: toA.request_id, result: { ok: true } });
    expect((await answer).structuredContent).toEqual({ ok: true });
    expect((await call('load_specimen', { specimen_id: 'nope' })).content[0]!.text).toContain("unknown specimen id 'nope'");
    expect((await call('set_display_param', { index: 0, name: 'glow', value: 1 })).content[0]!.text).toContain("'name' must be one of gamma");
    await a.close();
    await b.close();
    await mcp.close();
  });

  it('answers a capture with the executor’s next screenshot, and fails the calls of an executor that leaves', async () => {
    const r = room('agent');
    const mcp = await connectMcp(server.url);
    const a = await connectAgent(server.url, r);
    const b = await connectAgent(server.url, r);
    const capture = mcp.callTool({ name: 'capture_viewport', arguments: { room: r } }) as Promise<ToolAnswer>;
    const call = await a.next((f) => f.type === 'tool_call' && f.name === 'capture_viewport');
    a.send({ type: 'tool_result', request_id: call.request_id, result: { ok: true } });
    // Another socket's screenshot does not answer it; the executor's does.
    b.sendBinary({ kind: 'screenshot', mime: 'image/jpeg' }, Buffer.from('not this one'));
    const jpeg = Buffer.from([0xff, 0xd8, 1, 2, 3, 0xff, 0xd9]);
    a.sendBinary({ kind: 'screenshot', mime: 'image/jpeg' }, jpeg);
    const picture = await capture;
    expect(picture.content[0]).toMatchObject({ type: 'image', mimeType: 'image/jpeg', data: jpeg.toString('base64') });
    const left = mcp.callTool({ name: 'remove_specimen', arguments: { room: r, index: 0 } }) as Promise<ToolAnswer>;
    await a.next((f) => f.type === 'tool_call' && f.name === 'remove_specimen');
    await a.close();
    expect((await left).content[0]!.text).toBe(`502: executing client ${a.clientId} disconnected before replying to remove_specimen`);
    await waitFor(async () => ((await presence(r)).length === 1 ? true : undefined), 'the executor’s leave');
    expect((await presence(r))[0]).toMatchObject({ client_id: b.clientId, executor: true });
    await b.close();
    await mcp.close();
  });
});
