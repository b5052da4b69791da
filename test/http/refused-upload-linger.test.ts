/**
 * A refused upload is answered to every client: the host reads and drops the rest of a body it
 * refused (up to a bound) rather than closing while the client still sends, so Node's own `http`
 * client reads the 413 and its detail instead of failing with EPIPE, and on a raw connection the
 * whole body is taken and the connection still answers the next request. Both refusals are
 * covered: a Content-Length past `--max-upload-bytes`, and a chunked body that passes it; and a
 * JSON body past the body limit, which the HTTP framework refuses itself.
 */
import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

const MAX = 1024 * 1024;

/** Sends `total` bytes to `path` with node:http (with or without a Content-Length): the status and body it reads. */
function send(
  url: string, path: string, total: number, withLength: boolean, type = 'application/octet-stream', agent?: false,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': type };
    if (withLength) headers['content-length'] = total;
    const req = httpRequest(`${url}${path}`, { method: path.startsWith('/api/uploads') ? 'POST' : 'PUT', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    // Once the answer is read the socket leaves the request: the rest of the body meeting the
    // host's close (ECONNRESET) is then the socket's own error, after what is checked here.
    req.on('socket', (socket) => socket.on('error', () => undefined));
    // The whole body in one write, as a client holding the file in memory sends it.
    req.end(Buffer.alloc(total, 7));
  });
}

/** Writes `data` to `socket`, waiting while its buffer is full. */
async function write(socket: Socket, data: Buffer | string): Promise<void> {
  if (!socket.write(data)) await new Promise((resolve, reject) => (socket.once('drain', resolve), socket.once('error', reject)));
}

/** Sends a refused upload on a raw connection, then a second request on it: everything the host answered. */
async function refusedThenAnother(url: string, chunked: boolean): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let received = '';
  socket.on('data', (data: Buffer) => (received += data.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  const body = Buffer.alloc(8 * MAX, 3);
  const framing = chunked ? 'transfer-encoding: chunked' : `content-length: ${body.length}`;
  const head = `POST /api/uploads?filename=big.npy HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-type: application/octet-stream\r\n`;
  await write(socket, `${head}${framing}\r\n\r\n`);
  for (let at = 0; at < body.length; at += 64 * 1024) {
    const piece = body.subarray(at, at + 64 * 1024);
    await write(socket, chunked ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]) : piece);
  }
  if (chunked) await write(socket, '0\r\n\r\n');
  await write(socket, `GET /healthz HTTP/1.1\r\nhost: ${hostname}:${port}\r\nconnection: close\r\n\r\n`);
  await closed;
  return received;
}

// One host in this process for the refusals read to their end: a refused body leaves nothing
// behind, so each test meets the host as the first did. No plugins: an upload needs none.
const shared = fileTestApp({ maxUploadBytes: MAX, pluginsDir: null, specimensDir: null, poolSize: 1 });

describe('a refused upload', () => {
  for (const chunked of [false, true]) {
    it(`is read to its end and leaves the connection answering (${chunked ? 'chunked' : 'Content-Length'})`, async () => {
      const received = await refusedThenAnother(shared.url, chunked);
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(received).toMatch(/SPC_ERR_UPLOAD_TOO_LARGE/);
      expect(received).toMatch(/HTTP\/1\.1 200 [^]*"status"/);
    });
  }

  for (const [what, withLength] of [['with a Content-Length past the limit', true], ['streamed past the limit without one', false]] as const) {
    it(`is answered 413 to node:http, ${what}`, async () => {
      for (const path of ['/api/uploads?filename=big.npy', '/api/specimens/big?filename=big.npy']) {
        const answer = await send(shared.url, path, 64 * MAX, withLength);
        expect(answer.status, path).toBe(413);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'SPC_ERR_UPLOAD_TOO_LARGE' });
      }
    });
  }

  describe('by a host in a process of its own', () => {
    // One host for both: the upload limit it is given leaves the JSON body limit as it is.
    let host: RunningHost;
    beforeAll(async () => {
      const limit = ['--max-upload-bytes', String(MAX)];
      host = await spawnHost(['--port', '0', '--specimens', 'none', '--plugins', 'none', '--data-dir', 'none', ...limit, '--log-level', 'warn']);
    });
    afterAll(() => host?.stop());

    // A client that asks to close the connection after its request (`agent: false` sends
    // `Connection: close`, as many scripts do) must still read the answer: the host used to close
    // right after the 413 went out, while the body was still coming, and the client met EPIPE.
    it('with a Content-Length past the limit is answered 413 to node:http asking to close, every time', async () => {
      for (let attempt = 0; attempt < 21; attempt++) {
        const answer = await send(host.url, '/api/uploads?filename=big.npy', 8 * MAX, true, 'application/octet-stream', false);
        expect(answer.status, `try ${attempt + 1}`).toBe(413);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'SPC_ERR_UPLOAD_TOO_LARGE' });
      }
    });

    // A JSON body past the host's body limit is refused by the HTTP framework itself, which closed
    // the connection under the client: with the host in a process of its own, a body of 16 MiB
    // lost the answer to EPIPE about half the time, so several tries of each framing show it.
    it('past the JSON body limit is answered 413 to node:http, every time', async () => {
      for (const withLength of [true, false]) {
        for (let attempt = 0; attempt < 8; attempt++) {
          const answer = await send(host.url, '/api/rooms/linger/view', 16 * MAX, withLength, 'application/json');
          expect(answer.status).toBe(413);
          expect(JSON.parse(answer.body)).toMatchObject({ code: 'SPC_ERR_BODY_TOO_LARGE' });
        }
      }
    });
  });
});
