import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { CreateAppOptions } from '../../core/app.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A listening host with a /healthz route (the host's own when it has one). */
async function host(options: CreateAppOptions): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createTestApp(options);
  if (!app.hasRoute({ method: 'GET', url: '/healthz' })) app.get('/healthz', async () => ({ status: 'ok' }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

function block(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // keep the event loop busy
  }
}

describe('load shedding', () => {
  it('answers 503 with Retry-After and the JSON error while memory is past its limit; /healthz still answers', async () => {
    const { url } = await host({ maxHeapUsedBytes: 1 });
    // Memory is measured in samples: the host sheds from its first sample on.
    const res = await waitFor(async () => {
      const answer = await fetch(`${url}/api/specimens/`);
      return answer.status === 200 ? void (await answer.arrayBuffer()) : answer;
    }, 'the host to shed');
    expect(res.status).toBe(503);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({ status_code: 503, code: 'SPC_ERR_OVERLOADED' });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('sheds while the event loop lags for a sustained while, not after one long step', async () => {
    const { app, url } = await host({ maxEventLoopDelayMs: 100, maxHeapUsedBytes: 0 });
    block(1500);
    // The host has measured the long step and still answers: its delay sample that holds the
    // step is one of the two it takes after it (each sample reads the heap anew).
    const heapReadings = new Set([app.memoryUsage().heapUsed]);
    await waitFor(() => (heapReadings.add(app.memoryUsage().heapUsed).size > 2 ? true : undefined), 'two load samples after the long step');
    expect((await fetch(`${url}/api/specimens/`)).status).toBe(200);
    let status = 200;
    for (let i = 0; i < 30 && status === 200; i++) {
      block(400);
      status = (await fetch(`${url}/api/specimens/`)).status;
    }
    expect(status).toBe(503);
    // Once the event loop runs freely again, the host answers again (no request sheds for good).
    await waitFor(async () => ((await fetch(`${url}/api/specimens/`)).status === 200 ? true : undefined), 'the host to answer again');
  });
});
