/**
 * PeerChannel over a real WebSocket pair on loopback: a malformed result header fails the one
 * request instead of the process, a short payload fails fast with what happened, a slow
 * consumer of a streamed payload is not mistaken for a silent sender, a stall of the channel's
 * own process is not taken for a silent peer, and a peer that really answers nothing is dropped.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import type { RequestHandler } from '../../core/federation/channel-types.ts';
import { PeerChannel } from '../../core/federation/peer-channel.ts';
import { RemoteInvoker } from '../../core/federation/remote-invoker.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';

const MIB = 1024 * 1024;
/** The heartbeat's rules at a tenth of the wire's figures (3 s and 9 s): the same rules, sooner. */
const BEATS = { intervalMs: 300, deadMs: 900 };
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A server socket and the client socket connected to it, on loopback. */
async function socketPair(): Promise<{ serverSocket: WebSocket; client: WebSocket }> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { generateMask: (mask) => void mask.fill(0) });
  const [serverSocket] = (await accepted) as [WebSocket];
  await (client.readyState === client.OPEN ? Promise.resolve() : once(client, 'open'));
  closers.push(() => {
    client.terminate();
    server.close();
  });
  return { serverSocket, client };
}

/** A requester channel ("relay") and a responder channel ("worker") answering with `handler`. */
async function channels(handler: RequestHandler): Promise<{ relay: PeerChannel; worker: PeerChannel }> {
  const { serverSocket, client } = await socketPair();
  const relay = new PeerChannel(serverSocket, { peerId: 'w1', handler: async () => ({ body: {} }), onControl: () => {}, heartbeats: BEATS });
  const worker = new PeerChannel(client, { peerId: 'relay', handler, onControl: () => {}, heartbeats: BEATS });
  closers.push(() => {
    relay.close(1000, '');
    worker.close(1000, '');
  });
  return { relay, worker };
}

const channelPair = async (handler: RequestHandler): Promise<PeerChannel> => (await channels(handler)).relay;

// not a wait: a stretch in which heartbeats must come due and close nothing.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const entry: FunctionEntry = {
  name: 'w1:field',
  return_type: 'volume',
  schema: {},
  parameters: [],
  async: false,
  source: { kind: 'remote', workerId: 'w1', remoteName: 'field' },
  plugin: null,
};

describe('PeerChannel', () => {
  it('a result header that does not fit its payload fails that request with a 502, nothing else', async () => {
    const relay = await channelPair(async () => ({
      body: { header: { fields: { type: 'volume' }, arrays: [{ key: 'data', ctor: 'Float32Array', offset: 0, byteLength: -8 }], byteLength: 8 } },
      payload: { byteLength: 8, blocks: [new Uint8Array(8)] },
    }));
    const invoker = new RemoteInvoker(() => relay, { timeoutMs: 10_000 });
    await expect(invoker.invoke(entry, {}, { signal: new AbortController().signal, onArriving: () => {} })).rejects.toMatchObject({
      code: 'SPC_ERR_WORKER_ERROR',
      statusCode: 502,
    });
    expect(relay.closed).toBe(false);
  });

  it('a payload that ends short of what was announced fails at once, saying so', async () => {
    const relay = await channelPair(async () => ({ body: {}, payload: { byteLength: 10, blocks: [new Uint8Array(5)] } }));
    await expect(relay.request('data', {}, { timeoutMs: 60_000, sink: 'buffer' })).rejects.toThrow(/ended after 5 of 10 announced bytes/);
  });

  it('a slow consumer of a streamed payload holds the sender back without timing it out', async () => {
    const total = 12 * MIB;
    const relay = await channelPair(async () => ({ body: {}, payload: { byteLength: total, blocks: [new Uint8Array(total).fill(7)] } }));
    // The whole payload takes longer than this limit to read (3 s), while its answer starts
    // well within it even on a loaded machine: the limit is on the answer, not on the reading.
    const answer = await relay.request('data', {}, { timeoutMs: 2_000, sink: 'stream' });
    let received = 0;
    for await (const part of answer.stream! as AsyncIterable<Buffer>) {
      received += part.length;
      // The consumer's slow reading (250 ms a MiB), not a wait.
      await new Promise((resolve) => setTimeout(resolve, (part.length / MIB) * 250));
    }
    expect(received).toBe(total);
  });

  it('a stall of its own process is not taken for a silent peer', async () => {
    const { relay, worker } = await channels(async (op) => ({ body: { op } }));
    // This thread held past the silence limit (as copying a large result on a machine short of
    // CPU can hold it): both peers' pings wait unread while the heartbeats come due.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BEATS.deadMs + 2 * BEATS.intervalMs);
    // not a wait: two heartbeats pass, and neither may close a live peer.
    await sleep(2 * BEATS.intervalMs);
    expect([relay.closed, worker.closed]).toEqual([false, false]);
    expect((await relay.request('echo', {}, { timeoutMs: 10_000, sink: 'buffer' })).body).toEqual({ op: 'echo' });
  }, 60_000);

  it('drops a peer that answers nothing, and says so', async () => {
    const { serverSocket, client } = await socketPair();
    const relay = new PeerChannel(serverSocket, { peerId: 'w1', handler: async () => ({ body: {} }), onControl: () => {}, heartbeats: BEATS });
    const closed = new Promise<[number, string]>((resolve) => relay.onClose((code, reason) => resolve([code, reason])));
    // The peer reads nothing more, so it answers no ping, and sends nothing of its own.
    client.pause();
    expect(await closed).toEqual([1006, 'no heartbeat']);
  }, 60_000);
});
