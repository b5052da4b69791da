import net from 'node:net';
import type { ServerResponse } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { listenTestApp, parseRawResponse, rawExchange } from '../helpers/raw-http.ts';
import { waitFor } from '../helpers/wait-for.ts';

function expectClosingError(raw: string, status: number, code: string): void {
  const res = parseRawResponse(raw);
  expect(res.status, raw.slice(0, 200)).toBe(status);
  expect(res.headers.connection).toBe('close');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(res.body)).toMatchObject({ status_code: status, code });
}

describe('errors of the HTTP parser have the JSON error shape', () => {
  it('answers 431, 414 and 400 (malformed request, malformed chunked body) with Connection: close', async () => {
    const { port } = await listenTestApp();
    expectClosingError(
      await rawExchange(port, [`GET /api/specimens/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(40_000)}\r\n\r\n`]),
      431,
      'SPC_ERR_HEADERS_TOO_LARGE',
    );
    expectClosingError(
      await rawExchange(port, [`GET /api/specimens/?q=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`]),
      414,
      'SPC_ERR_URL_TOO_LONG',
    );
    expectClosingError(await rawExchange(port, ['NOT AN HTTP REQUEST\r\n\r\n']), 400, 'SPC_ERR_MALFORMED_REQUEST');
    expectClosingError(await rawExchange(port, ['GET / HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n']), 400, 'SPC_ERR_MALFORMED_REQUEST');
    const chunked =
      'POST /api/processing/cache/clear HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n';
    expectClosingError(await rawExchange(port, [chunked]), 400, 'SPC_ERR_MALFORMED_REQUEST');
  });

  it('keeps catalogued codes for errors fastify raises itself (a bad URL encoding)', async () => {
    const { url } = await listenTestApp();
    const res = await fetch(`${url}/api/specimens/%E0%A4%A/data`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status_code: 400, code: 'SPC_ERR_BAD_REQUEST' });
  });
});

describe('--request-timeout', () => {
  it('answers 408 and closes a request whose body or headers do not arrive in time', async () => {
    const { port } = await listenTestApp({ requestTimeoutSeconds: 1 });
    const slowBody = rawExchange(port, [
      'POST /api/processing/invoke HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    ]);
    const slowHeaders = rawExchange(port, ['GET /api/specimens/ HTTP/1.1\r\nHost: loc']);
    expectClosingError(await slowBody, 408, 'SPC_ERR_REQUEST_TIMEOUT');
    expectClosingError(await slowHeaders, 408, 'SPC_ERR_REQUEST_TIMEOUT');
  });

  it('does not end a request whose answer takes longer than the timeout', async () => {
    const { url } = await listenTestApp({ requestTimeoutSeconds: 1 });
    const res = await fetch(`${url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: 'steps', kwargs: { count: 4, delay_ms: 500 } }),
    });
    expect(res.status).toBe(200);
  });
});

describe('write timeout', () => {
  async function bigFileHost(mib: number): Promise<{ port: number; closedEarly: Promise<boolean>; size: number }> {
    const dir = await makeSpecimensDir();
    const size = mib * 1024 * 1024;
    await mkdir(join(dir, 'big'), { recursive: true });
    await writeFile(join(dir, 'big', 'specimen.json'), JSON.stringify({ display_name: 'Big', type: 'mesh', data_file: 'big.obj' }));
    await writeFile(join(dir, 'big', 'big.obj'), Buffer.alloc(size, 0x20));
    const { app, port } = await listenTestApp({ specimensDir: dir, writeTimeoutSeconds: 1 });
    const closedEarly = new Promise<boolean>((resolve) =>
      app.server.once('request', (_req, res: ServerResponse) => res.once('close', () => resolve(!res.writableFinished))),
    );
    return { port, closedEarly, size };
  }

  it('destroys a response whose client stopped reading', async () => {
    const { port, closedEarly } = await bigFileHost(32);
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    socket.on('error', () => {});
    socket.write('GET /api/specimens/big/data HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closedEarly).toBe(true);
    socket.destroy();
  });

  it('lets a slow client that keeps reading receive everything', async () => {
    const { port, closedEarly, size } = await bigFileHost(16);
    const socket = net.connect(port, '127.0.0.1');
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      socket.pause();
      setTimeout(() => socket.resume(), 10);
    });
    socket.write('GET /api/specimens/big/data HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(await closedEarly).toBe(false);
    await waitFor(() => (received >= size ? true : undefined), 'the whole body to arrive');
    socket.destroy();
    expect(received).toBeGreaterThan(size);
  });
});
