/**
 * A remote read sent on a kept-alive connection the remote closed while it sat idle is sent again,
 * once, on a new connection; a connection reset on a fresh connection is the remote's fault and is
 * not. The server here is a raw TCP one, so the test decides exactly when a connection goes.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRead } from '../../core/remote/http-read.ts';
import type { Remote } from '../../core/remote/remote-list.ts';

const answer = (body: string) => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`;

interface Seen {
  connections: number;
  requests: number;
}

/**
 * A server answering the first request of a connection with `body`, and resetting a connection on
 * its `resetOn`-th request (counted over every connection, from 1).
 */
async function serve(resetOn: number): Promise<{ url: string; seen: Seen; close: () => void }> {
  const seen: Seen = { connections: 0, requests: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    seen.connections++;
    sockets.add(socket);
    socket.on('data', (data) => {
      if (!data.toString('latin1').includes('\r\n\r\n')) return;
      seen.requests++;
      if (seen.requests === resetOn) socket.resetAndDestroy();
      else socket.write(answer(`answer ${seen.requests}`));
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  return { url: `http://127.0.0.1:${port}/`, seen, close };
}

const remoteAt = (prefix: string): Remote => ({ name: 'lab', prefix, kind: 'http', allowsPrivate: true });
const read = (url: string) => httpRead(remoteAt(url), `${url}a`, undefined, AbortSignal.timeout(5000), 1 << 20);
const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString();

let closing: (() => void) | undefined;
afterEach(() => closing?.());

describe('a remote read on a kept-alive connection', () => {
  it('is sent again on a new connection when the kept-alive one was closed meanwhile', async () => {
    const server = await serve(2);
    closing = server.close;
    expect(text((await read(server.url))?.bytes)).toBe('answer 1');
    // The second request goes out on the kept-alive connection, which the server resets.
    expect(text((await read(server.url))?.bytes)).toBe('answer 3');
    expect(server.seen).toEqual({ connections: 2, requests: 3 });
  });

  it('fails, not sent again, when a fresh connection is reset', async () => {
    const server = await serve(1);
    closing = server.close;
    await expect(read(server.url)).rejects.toThrow(/ECONNRESET|socket hang up/);
    expect(server.seen).toEqual({ connections: 1, requests: 1 });
  });
});
