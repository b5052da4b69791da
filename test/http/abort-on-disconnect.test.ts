/**
 * @module abort-on-disconnect.test
 * The disconnect signal every route uses, on a real fastify server on a loopback port: it
 * aborts when the client goes away mid-response (read before or after it left), never once the
 * response has finished, and the lazy form makes no signal until one is read.
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortOnDisconnect, CLIENT_GONE, DisconnectSignal } from '../../core/http/abort-on-disconnect.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** What the server saw of each request, by the `n` it was called with. */
interface Seen {
  signal?: AbortSignal;
  /** Resolves the request's answer (for the routes that wait). */
  answer?: () => void;
  /** Set when the response's connection closed (finished or not). */
  closed?: true;
}
const seen = new Map<string, Seen>();
let app: FastifyInstance;
let port: number;

beforeAll(async () => {
  app = Fastify();
  // Reads the signal at once, then answers only when the test says so.
  app.get<{ Querystring: { n: string } }>('/eager', async (request, reply) => {
    const entry: Seen = { signal: abortOnDisconnect(request, reply) };
    reply.raw.once('close', () => (entry.closed = true));
    seen.set(request.query.n, entry);
    await new Promise<void>((resolve) => (entry.answer = resolve));
    return 'done';
  });
  // Makes the lazy form, and reads it only once the client has gone (or the test says so).
  app.get<{ Querystring: { n: string } }>('/lazy', async (request, reply) => {
    const disconnect = new DisconnectSignal(request, reply);
    const entry: Seen = {};
    reply.raw.once('close', () => (entry.closed = true));
    seen.set(request.query.n, entry);
    await new Promise<void>((resolve) => (entry.answer = resolve));
    entry.signal = disconnect.signal;
    return 'done';
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as { port: number }).port;
});
afterAll(() => app?.close());

function get(path: string): { req: ClientRequest; body: Promise<string> } {
  const req = httpRequest({ host: '127.0.0.1', port, path });
  const body = new Promise<string>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
  });
  req.end();
  return { req, body };
}

const arrived = (n: string): Promise<Seen> => waitFor(() => (seen.get(n)?.answer ? seen.get(n) : undefined), `request ${n} to reach the server`);

describe('abortOnDisconnect', () => {
  it('aborts, saying why, when the client goes away before the response is finished', async () => {
    const { req, body } = get('/eager?n=gone');
    body.catch(() => {});
    const entry = await arrived('gone');
    expect(entry.signal!.aborted).toBe(false);
    req.destroy();
    await waitFor(() => entry.signal!.aborted || undefined, 'the signal to abort');
    expect((entry.signal!.reason as Error).message).toBe(CLIENT_GONE);
    entry.answer!();
  });

  it('never aborts once the response has been sent', async () => {
    const { body } = get('/eager?n=finished');
    const entry = await arrived('finished');
    entry.answer!();
    expect(await body).toBe('done');
    await waitFor(() => entry.closed, 'the response to close');
    expect(entry.signal!.aborted).toBe(false);
  });
});

describe('DisconnectSignal', () => {
  it('read after the client left, is aborted already', async () => {
    const { req, body } = get('/lazy?n=late');
    body.catch(() => {});
    const entry = await arrived('late');
    req.destroy();
    await waitFor(() => entry.closed, 'the server to see the client gone');
    entry.answer!();
    await waitFor(() => entry.signal, 'the handler to read the signal');
    expect(entry.signal!.aborted).toBe(true);
  });

  it('read while the client waits, is live', async () => {
    const { body } = get('/lazy?n=live');
    const entry = await arrived('live');
    entry.answer!();
    expect(await body).toBe('done');
    expect(entry.signal).toBeDefined();
    expect(entry.signal!.aborted).toBe(false);
  });
});
