/**
 * The client's transport asks a read again when the host refuses it for now (503 with
 * `Retry-After`), after the wait it names, a bounded number of times; a write, a 503 without
 * `Retry-After` and any other error are answered at once. Against a real loopback server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isAbortError, VitrineHttpError } from '../../core/client/errors.ts';
import { BUSY_RETRIES, retryAfterMs, Transport } from '../../core/client/transport.ts';
import { waitFor } from '../helpers/wait-for.ts';

let server: Server | null = null;

/** A server whose first `busy` answers are 503 (with `retryAfter` when given), then 200 "ok". */
async function serve(busy: number, retryAfter: string | null): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(req.method ?? '');
    req.resume();
    if (seen.length <= busy) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (retryAfter !== null) headers['retry-after'] = retryAfter;
      res.writeHead(503, headers).end(JSON.stringify({ status_code: 503, detail: 'busy, retry later', code: 'SPC_ERR_X' }));
    } else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = null;
});

describe('a read refused with 503 and Retry-After', () => {
  it('is asked again until it is answered', async () => {
    const { url, seen } = await serve(2, '0');
    const response = await new Transport(url).send('GET', '/api/blobs/x');
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual(['GET', 'GET', 'GET']);
  });

  it(`gives up after ${BUSY_RETRIES} retries with the host's error`, async () => {
    const { url, seen } = await serve(100, '0');
    const error = await new Transport(url).send('GET', '/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VitrineHttpError);
    expect((error as VitrineHttpError).status).toBe(503);
    expect((error as VitrineHttpError).message).toContain('busy, retry later');
    expect(seen).toHaveLength(BUSY_RETRIES + 1);
  });

  it('is not asked again when it is a write, or without Retry-After', async () => {
    const post = await serve(1, '0');
    await expect(new Transport(post.url).send('POST', '/x', { body: {} })).rejects.toMatchObject({ status: 503 });
    expect(post.seen).toEqual(['POST']);
    await new Promise((resolve) => server!.close(resolve));
    const bare = await serve(1, null);
    await expect(new Transport(bare.url).send('GET', '/x')).rejects.toMatchObject({ status: 503 });
    expect(bare.seen).toEqual(['GET']);
  });

  it('stops waiting when its signal aborts', async () => {
    const { url, seen } = await serve(1, '5');
    const controller = new AbortController();
    const pending = new Transport(url).send('GET', '/x', { signal: controller.signal });
    await waitFor(() => (seen.length > 0 ? true : undefined), 'the first request');
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(seen).toEqual(['GET']);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and dates, and bounds the wait', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    expect(retryAfterMs('3600')).toBe(10_000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:02 GMT', now)).toBe(2000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
