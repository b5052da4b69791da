/**
 * A refused body's lingering close ends the request however it was made: over a socket, or in
 * process (fastify's `inject`, whose request has a socket object without `destroy`), where the
 * timer used to throw an uncaught TypeError once its 30 s were up.
 */
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LINGER_MS, lingerOnRefusedBody } from '../../core/http/linger-refused-body.ts';

afterEach(() => {
  vi.useRealTimers();
});

function request(socket: unknown): IncomingMessage & PassThrough {
  const raw = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(raw, { complete: false, socket });
  return raw;
}

describe('the lingering close of a refused body', () => {
  it('destroys the socket when the body does not come', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const destroy = vi.fn();
    lingerOnRefusedBody(request({ destroy }));
    vi.advanceTimersByTime(LINGER_MS + 1);
    expect(destroy).toHaveBeenCalledTimes(1);
  });

  it('destroys the request itself when its socket cannot be closed (a request made in process)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const raw = request({});
    lingerOnRefusedBody(raw);
    expect(() => vi.advanceTimersByTime(LINGER_MS + 1)).not.toThrow();
    expect(raw.destroyed).toBe(true);
  });

  it('lets the connection be once the body has come to its end', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const destroy = vi.fn();
    const raw = request({ destroy });
    lingerOnRefusedBody(raw);
    const ended = new Promise((resolve) => raw.once('end', resolve));
    raw.end(Buffer.from('the rest'));
    await ended;
    vi.advanceTimersByTime(LINGER_MS + 1);
    expect(destroy).not.toHaveBeenCalled();
  });
});
