/**
 * @module route-of.test
 * A request's route options are read from fastify once and then kept: every hook of the
 * request sees the same object, naming the route matched (none for an unmatched URL), and the
 * next request gets its own.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { declareRouteOf, routeOf } from '../../core/http/route-of.ts';

describe('routeOf', () => {
  it('gives every hook of a request the same route options, and each request its own', async () => {
    const app = Fastify();
    declareRouteOf(app);
    const seen: { early: unknown; late: unknown; url: string | undefined }[] = [];
    app.addHook('onRequest', (request, _reply, done) => {
      seen.push({ early: routeOf(request), late: undefined, url: routeOf(request).url });
      done();
    });
    app.addHook('onSend', async (request, _reply, payload) => {
      seen.at(-1)!.late = routeOf(request);
      return payload;
    });
    app.get('/things/:id', async () => 'ok');
    expect((await app.inject('/things/1')).statusCode).toBe(200);
    expect((await app.inject('/things/2')).statusCode).toBe(200);
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
    expect(seen.map((s) => s.url)).toEqual(['/things/:id', '/things/:id', undefined]);
    for (const s of seen) expect(s.late).toBe(s.early);
    expect(seen[0]!.early).not.toBe(seen[1]!.early);
    await app.close();
  });
});
