/**
 * A request's logger is made when the request logs, and only then: its lines carry the
 * request's id as fastify's own children do, a route that never logs makes no child, and a
 * route's own log level still holds.
 */
import { PassThrough } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { LazyChildLogger, lazyChildLogger } from '../../core/http/lazy-child-logger.ts';

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

/** A host-like fastify app on loopback whose log lines are collected. */
async function appWithLog(): Promise<{ url: string; lines: () => Record<string, unknown>[]; children: () => number }> {
  let text = '';
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  let children = 0;
  const app = Fastify({
    logger: { level: 'info', stream },
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger, bindings, options) => {
      const counted = Object.create(logger) as FastifyBaseLogger;
      counted.child = (b, o) => {
        children++;
        return logger.child(b, o);
      };
      return lazyChildLogger(counted, bindings, options);
    },
  });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/loud', async (request) => {
    request.log.warn({ room: 'r1' }, 'something to say');
    request.log.info('and more');
    return { ok: true };
  });
  app.get('/debug', { logLevel: 'debug' }, async (request) => {
    request.log.debug('only at debug');
    return { level: request.log.level };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  close = () => app.close();
  const lines = () => text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
  return { url, lines, children: () => children };
}

describe('a request’s lazy logger', () => {
  it('makes no child for requests that do not log, and one bound to the request id for one that does', async () => {
    const { url, lines, children } = await appWithLog();
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}/quiet`)).status).toBe(200);
    expect(children()).toBe(0);
    expect((await fetch(`${url}/loud`)).status).toBe(200);
    expect(children()).toBe(1);
    const said = lines().filter((line) => line.msg === 'something to say' || line.msg === 'and more');
    expect(said).toHaveLength(2);
    expect(said[0]).toMatchObject({ level: 40, room: 'r1' });
    expect(typeof said[0]!.reqId).toBe('string');
    expect(said[1]!.reqId).toBe(said[0]!.reqId);
  });

  it('keeps a route’s own level', async () => {
    const { url, lines } = await appWithLog();
    expect(await (await fetch(`${url}/debug`)).json()).toEqual({ level: 'debug' });
    expect(lines().some((line) => line.msg === 'only at debug' && line.level === 20)).toBe(true);
  });

  it('reads the parent’s level and level test without making a child', () => {
    let made = 0;
    const parent = { level: 'warn', isLevelEnabled: (level: string) => level !== 'info', child: () => (made++, parent) } as unknown as FastifyBaseLogger;
    const lazy = new LazyChildLogger(parent, { reqId: 'x' }, {});
    expect(lazy.level).toBe('warn');
    expect(lazy.isLevelEnabled('info')).toBe(false);
    expect(lazy.isLevelEnabled('error')).toBe(true);
    expect(made).toBe(0);
  });
});
