/**
 * @module redis-faults.test
 * Faults of Redis stay faults, not failures. Jobs accepted before an outage
 * longer than a compute node's heartbeat expiry (Redis with AOF, killed and restarted on the
 * same port) all end `done`, though every heartbeat lapsed meanwhile; once `/readyz` is 200
 * again, a new computation is answered at once, never 503 "no compute node". A Redis that
 * stalls (SIGSTOP: its connections stay open and it answers nothing) turns `/readyz` 503 naming
 * Redis, and 200 again once it answers. No 503 detail quotes Redis or its client library.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { ended, getData, lineCount, QUOTED, readyz, room, startJob, startService, tag, type Service } from './service.ts';

let service: Service;
let a: RunningHost;
let b: RunningHost;
beforeAll(async () => {
  service = await startService({ redisArgs: ['--appendonly', 'yes', '--appendfsync', 'everysec'] });
  [a, b] = await Promise.all([service.host(), service.host()]);
  await service.worker({ poolSize: 3 });
});

describe('a Redis outage longer than a heartbeat', () => {
  it('fails none of the jobs accepted before it, and leaves no window of "no compute node"', async () => {
    const t = tag();
    // Each run ticks every 100 ms (or more slowly) on the worker, through the outage, until the
    // test stops it once Redis is back (its 120 s only a backstop).
    const params = (i: number) => ({ dir: service.runs, tag: `${t}-${i}`, interval_ms: 100, seconds: 120 });
    const ticks = (i: number) => lineCount(service.runs, `${t}-${i}.ticks`);
    const ids = await Promise.all([0, 1, 2].map((i) => startJob(i % 2 ? b : a, 'tick', params(i), room())));
    await waitFor(() => ([0, 1, 2].every((i) => ticks(i) >= 3) ? true : undefined), 'the three runs to tick');
    // AOF every second: what the jobs' records hold was written more than a second ago.
    await service.redis.kill();
    const atKill = ticks(0);
    const killedAt = Date.now();
    try {
      await waitFor(async () => ((await readyz(a)).status === 503 ? true : undefined), 'A to be not ready');
      const down = await getData(a, 'count', { dir: service.runs, tag: t, delay_ms: 0 }, room());
      expect(down.status).toBe(503);
      expect(down.body.toString()).not.toMatch(QUOTED);
      // Down for longer than a node's heartbeat expiry (6 s after its last beat), the run ticking
      // on meanwhile. (Counting ticks for the time would not do: on a loaded machine they come
      // slower.)
      await waitFor(() => (Date.now() - killedAt >= 6500 && ticks(0) > atKill ? true : undefined), 'the run to tick on through a long outage');
    } finally {
      // Back whatever happened, so the next test starts with a Redis.
      await service.redis.restart();
    }

    await waitFor(async () => ((await readyz(a)).status === 200 ? true : undefined), 'A to be ready again');
    // At once: the worker's heartbeat may not be in yet, and that is no reason for a 503.
    const first = await getData(a, 'count', { dir: service.runs, tag: t, delay_ms: 0 }, room());
    expect({ status: first.status, body: first.status === 200 ? '' : first.body.toString() }).toEqual({ status: 200, body: '' });
    // Every run ticked through the outage and is still running: now they may end.
    for (const i of [0, 1, 2]) writeFileSync(join(service.runs, `${t}-${i}.stop`), '');
    for (const [i, id] of ids.entries()) {
      expect(await ended(i % 2 ? a : b, id)).toMatchObject({ status: 'done', error: null });
    }
  });
});

describe('a Redis that stalls', () => {
  it('turns /readyz 503 naming Redis while it answers nothing, and 200 once it answers', async () => {
    await waitFor(async () => ((await readyz(b)).status === 200 ? true : undefined), 'B to be ready');
    service.redis.freeze();
    try {
      const stalled = await waitFor(async () => {
        const r = await readyz(b);
        return r.status === 503 ? r : undefined;
      }, 'B to be not ready during the stall');
      expect(stalled.detail).toMatch(/Redis/);
      expect(stalled.detail).not.toMatch(QUOTED);
      expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
    } finally {
      service.redis.thaw();
    }
    await waitFor(async () => ((await readyz(b)).status === 200 ? true : undefined), 'B to be ready after the stall');
  });
});
