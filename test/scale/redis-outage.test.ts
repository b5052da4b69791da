/**
 * @module redis-outage.test
 * Redis stopped and restarted under load: requests in flight when Redis goes
 * answer 503 with the JSON error body; while it is down every request that needs it
 * (`/data`, `/invoke`, `/start`, job progress, cache stats) answers 503
 * SPC_ERR_REDIS_UNAVAILABLE within a few seconds (a bounded loop of requests on both hosts,
 * each given 8 s before it counts as a hang), never a 500; the catalog keeps answering 200,
 * `/readyz` is 503 and `/healthz` 200. Restarted on the same port, the hosts and the worker
 * recover by themselves: `/readyz` 200 and a `/data` that computes succeeds on both hosts; a
 * room stream open across the outage closes once Redis is back (it may have missed events)
 * and its reconnection starts from the room's `state`.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { getData, lineCount, room, startJob, tag, useTwoHosts } from './service.ts';

// Three threads: the ticker job and both computations in flight run at once.
const s = useTwoHosts({ poolSize: 3 });

/** Rounds of requests while Redis is down (each round is 8 requests on one host). */
const ROUNDS = 12;
/** A request taking longer than this during the outage is s.a hang. */
const HANG_MS = 8000;

interface Answer {
  status: number;
  json: Record<string, unknown> | null;
}

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(HANG_MS) });
  const text = await res.text();
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // not JSON: the assertions below say so
  }
  return { status: res.status, json };
}

const post = (body: object): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

function expectUnavailable(answer: Answer, what: string): void {
  expect({ what, status: answer.status }).toEqual({ what, status: 503 });
  expect(answer.json).toMatchObject({ status_code: 503, code: 'SPC_ERR_REDIS_UNAVAILABLE', detail: expect.any(String) });
}

describe('Redis stopped and restarted', () => {
  it('answers 503 fast while it is down, keeps the catalog, and recovers by itself', async () => {
    const t = tag();
    const jobId = await startJob(s.a, 'tick', { dir: s.service.runs, tag: t, interval_ms: 50, seconds: 3 }, room());
    expect((await getData(s.b, 'count', { dir: s.service.runs, tag: t, delay_ms: 0 }, room())).status).toBe(200);
    // Load: computations waited for on both hosts when Redis goes.
    const inFlight = [s.a, s.b].map((host, i) => {
      const query = new URLSearchParams({ params: JSON.stringify({ dir: s.service.runs, tag: t, delay_ms: 2500 + i }), room_id: room() });
      return ask(`${host.url}/api/specimens/count/data?${query}`);
    });
    await waitFor(() => (lineCount(s.service.runs, `${t}.runs`) >= 3 ? true : undefined), 'the in-flight computations to start');

    // A room stream open on A across the outage: it may have missed events, so it closes once
    // Redis is back, and a reconnection starts from the room's state.
    const followed = room();
    const stream = await openStream(`${s.a.url}/api/rooms/${followed}/events`);
    await stream.next((e) => e.event === 'state');

    await s.service.redis.stop();
    for (const answer of await Promise.all(inFlight)) expectUnavailable(answer, 'a /data in flight');

    for (let round = 0; round < ROUNDS; round++) {
      const host = round % 2 === 0 ? s.a : s.b;
      const params = JSON.stringify({ dir: s.service.runs, tag: t, delay_ms: 100 + round });
      const [data, invoked, started, polled, stats, catalog, ready, healthy] = await Promise.all([
        ask(`${host.url}/api/specimens/count/data?${new URLSearchParams({ params, room_id: room() })}`),
        ask(`${host.url}/api/processing/invoke`, post({ function_name: 'counted', kwargs: { tag: t, delay_ms: round }, room_id: room() })),
        ask(`${host.url}/api/specimens/steps/start`, post({ params: { count: 2 + round }, room_id: room() })),
        ask(`${host.url}/api/jobs/${jobId}/progress`),
        ask(`${host.url}/api/processing/cache/stats`),
        ask(`${host.url}/api/specimens/`),
        ask(`${host.url}/readyz`),
        ask(`${host.url}/healthz`),
      ]);
      expectUnavailable(data, '/data');
      expectUnavailable(invoked, '/invoke');
      expectUnavailable(started, '/start');
      expectUnavailable(polled, 'job progress');
      expectUnavailable(stats, 'cache stats');
      expect(catalog.status).toBe(200);
      expect((catalog.json as unknown as { id: string }[]).map((e) => e.id).sort()).toEqual(['big', 'boom', 'count', 'steps', 'tick']);
      expect(ready).toMatchObject({ status: 503, json: { status_code: 503, detail: expect.stringMatching(/redis/i) } });
      expect(healthy.status).toBe(200);
      // No pause between rounds: each starts once the last one's answers are all in.
    }

    await s.service.redis.restart();
    for (const host of [s.a, s.b]) {
      await waitFor(async () => ((await ask(`${host.url}/readyz`)).status === 200 ? true : undefined), `${host.url}/readyz to answer 200 again`);
    }
    await stream.ended;
    const again = await openStream(`${s.a.url}/api/rooms/${followed}/events`);
    expect(await again.next()).toMatchObject({ event: 'state', data: null });
    again.close();
    // A computation after the restart: the worker is back, both hosts get it.
    const after = tag();
    const roomId = room();
    const params = { dir: s.service.runs, tag: after, delay_ms: 0 };
    const first = await waitFor(async () => {
      const res = await getData(s.a, 'count', params, roomId);
      return res.status === 200 ? res : undefined;
    }, 'a /data that computes after the restart', 30_000);
    const second = await getData(s.b, 'count', params, roomId);
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(lineCount(s.service.runs, `${after}.runs`)).toBe(1);
    expect((await ask(`${s.b.url}/api/processing/cache/stats`)).status).toBe(200);
  }, 120_000);
});
