/**
 * The relay's frame limits: a peer that did not show the token at the upgrade gets a socket of
 * the host's small frames (a large frame is refused from its header, before its payload is
 * sent, let alone buffered) and is refused at its hello; a worker that showed it moves large
 * messages.
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROTOCOL_VERSION, TOKEN_HEADER } from '../../core/federation/wire-messages.ts';
import { SMALL_FRAME_BYTES } from '../../core/http/socket-limits.ts';
import { listenTestApp, type ListeningApp } from '../helpers/raw-http.ts';
import { waitFor } from '../helpers/wait-for.ts';

const MIB = 1024 * 1024;

function open(url: string, token?: string): Promise<WebSocket> {
  const ws = new WebSocket(url, token ? { headers: { [TOKEN_HEADER]: token }, maxPayload: 64 * MIB } : {});
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
}

function nextMessage(ws: WebSocket): Promise<{ t: string }> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)) as { t: string })));
}

/**
 * Upgrades a raw TCP connection to `path` and writes the header of one masked binary frame of
 * `length` bytes followed by only `sent` of them. Resolves with everything the host sent back
 * after its 101 once it ends the connection.
 */
function frameHeaderOnly(port: number, path: string, length: number, sent: number): Promise<{ status: number; after: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const before = received.indexOf('\r\n\r\n');
      received = Buffer.concat([received, chunk]);
      if (before === -1 && received.indexOf('\r\n\r\n') !== -1) {
        const header = Buffer.alloc(14);
        header[0] = 0x82; // FIN, binary
        header[1] = 0x80 | 127; // masked, 64-bit length
        header.writeBigUInt64BE(BigInt(length), 2); // the mask key (bytes 10-13) stays zero
        socket.write(Buffer.concat([header, Buffer.alloc(sent)]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      resolve({ status: Number(received.subarray(0, end).toString('latin1').split(' ')[1]), after: received.subarray(end + 4) });
    });
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

/** The close code of the first close frame in `bytes` (frames from the host are unmasked). */
function closeCodeIn(bytes: Buffer): number | null {
  for (let at = 0; at + 4 <= bytes.length; ) {
    const opcode = bytes[at]! & 0x0f;
    const length = bytes[at + 1]! & 0x7f; // the host's control and small frames only
    if (opcode === 0x8) return bytes.readUInt16BE(at + 2);
    at += 2 + length;
  }
  return null;
}

/** A relay asking for a token, closed when the test ends, and its federation sockets' URL. */
async function tokenRelay(): Promise<{ relay: ListeningApp; ws: string }> {
  const relay = await listenTestApp({ relay: true, token: 'secret' });
  return { relay, ws: `${relay.url.replace('http', 'ws')}/ws/federation` };
}

describe('relay frame limit', () => {

  it('refuses with 1009 a large frame of a peer that showed no token, from its header alone', async () => {
    const { relay } = await tokenRelay();
    const { status, after } = await frameHeaderOnly(relay.port, '/ws/federation/w0', 32 * MIB, 1024);
    expect(status).toBe(101);
    // Only 1 KiB of the 32 MiB was ever sent: the host cannot have buffered the frame.
    expect(closeCodeIn(after)).toBe(1009);
  });

  it('refuses a large frame, or a large hello, of a peer whose upgrade showed a wrong token', async () => {
    const { ws } = await tokenRelay();
    const binary = await open(`${ws}/w1`, 'wrong');
    const binaryClosed = closed(binary);
    binary.send(Buffer.alloc(MIB));
    expect((await binaryClosed).code).toBe(1009);
    const hello = await open(`${ws}/w1`);
    const helloClosed = closed(hello);
    hello.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION, worker_id: 'w1', pad: 'x'.repeat(SMALL_FRAME_BYTES) }));
    expect((await helloClosed).code).toBe(1009);
  });

  it('refuses at its hello a peer that showed no token at the upgrade, whatever its hello says', async () => {
    const { ws } = await tokenRelay();
    const peer = await open(`${ws}/w1`);
    const peerClosed = closed(peer);
    peer.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION, worker_id: 'w1', token: 'secret' }));
    expect(await peerClosed).toEqual({ code: 4001, reason: 'unauthorized: wrong or missing token' });
  });

  it('takes large messages from a worker that showed the token at the upgrade', async () => {
    const { relay, ws } = await tokenRelay();
    const worker = await open(`${ws}/w2`, 'secret');
    const welcome = nextMessage(worker);
    worker.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION, worker_id: 'w2' }));
    expect((await welcome).t).toBe('welcome');
    let closeCode: number | null = null;
    worker.once('close', (c) => (closeCode = c));
    // About 5 MiB in one message: far past the small limit.
    const specimens = Array.from({ length: 10_000 }, (_, i) => ({
      id: `s${i}`,
      display_name: 'x'.repeat(500),
      description: '',
      type: 'mesh',
      tags: [],
      is_dynamic: false,
    }));
    const register = JSON.stringify({ t: 'register', specimens, functions: [] });
    expect(register.length).toBeGreaterThan(4 * MIB);
    worker.send(register);
    const workers = async () => (await (await fetch(`${relay.url}/api/federation/workers`)).json()) as { worker_id: string; specimens: number }[];
    await waitFor(
      async () => ((await workers()).some((w) => w.worker_id === 'w2' && w.specimens === 10_000) ? true : undefined),
      "w2's 10000 specimens to be registered",
    );
    expect(closeCode).toBeNull();
    worker.close();
  });
});
