/**
 * @module ready-frame.test
 * Host frames made once as wire bytes and written past ws, against the installed ws on real
 * sockets: a ws client reads each as the frame's JSON, whatever the length's form (one byte, two,
 * eight), in order with frames ws itself sends; a connection with compression in use is left to ws.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { readyFrame, readyWriter } from '../../core/agent/ready-frame.ts';

let server: WebSocketServer | null = null;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = null;
});

/** A server and a client joined to it; the server's side of the connection and what the client reads. */
async function pair(perMessageDeflate: boolean): Promise<{ side: WebSocket; texts: string[]; client: WebSocket }> {
  const listening = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate });
  server = listening;
  await new Promise((resolve) => listening.once('listening', resolve));
  const side = new Promise<WebSocket>((resolve) => listening.once('connection', resolve));
  const client = new WebSocket(`ws://127.0.0.1:${(listening.address() as AddressInfo).port}`, { perMessageDeflate });
  const texts: string[] = [];
  client.on('message', (data: Buffer, isBinary) => void (isBinary || texts.push(data.toString('utf8'))));
  await new Promise((resolve) => client.once('open', resolve));
  return { side: await side, texts, client };
}

describe('a ready frame', () => {
  it('reaches a ws client as its JSON, short, middling and long, in order with what ws sends', async () => {
    const { side, texts, client } = await pair(false);
    const writer = readyWriter(side);
    expect(writer).not.toBeNull();
    const frames = [{ type: 'a', text: 'x' }, { type: 'b', text: 'é'.repeat(100) }, { type: 'c', text: 'y'.repeat(70_000) }];
    for (const frame of frames) {
      writer!.write(readyFrame(frame).wire);
      side.send(JSON.stringify({ type: 'by ws' }));
    }
    await new Promise<void>((resolve) => client.on('message', () => texts.length === 6 && resolve()));
    expect(texts.map((text) => JSON.parse(text) as object)).toEqual(frames.flatMap((frame) => [frame, { type: 'by ws' }]));
    expect(readyFrame(frames[0]!)).toBe(readyFrame(frames[0]!));
    expect(readyFrame(frames[1]!).text.toString()).toBe(JSON.stringify(frames[1]));
    client.close();
  });

  it('is left to ws on a connection with compression in use', async () => {
    const { side, client } = await pair(true);
    expect(side.extensions).toContain('permessage-deflate');
    expect(readyWriter(side)).toBeNull();
    client.close();
  });
});
