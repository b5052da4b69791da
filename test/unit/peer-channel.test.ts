/**
 * PeerChannel over a real WebSocket pair on loopback: a malformed result header fails the one
 * request instead of the process, a short payload fails fast with what happened, and a slow
 * consumer of a streamed payload is not mistaken for a silent sender.
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
const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A requester channel ("relay") and a responder channel ("worker") answering with `handler`. */
async function channelPair(handler: RequestHandler): Promise<PeerChannel> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await once(server, 'listening');
  const accepted = once(server, 'connection');
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`, { generateMask: (mask) => void mask.fill(0) });
  const [serverSocket] = (await accepted) as [WebSocket];
  await (client.readyState === client.OPEN ? Promise.resolve() : once(client, 'open'));
  const relay = new PeerChannel(serverSocket, { peerId: 'w1', handler: async () => ({ body: {} }), onControl: () => {} });
  const worker = new PeerChannel(client, { peerId: 'relay', handler, onControl: () => {} });
  closers.push(() => {
    relay.close(1000, '');
    worker.close(1000, '');
    server.close();
  });
  return relay;
}

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
});
