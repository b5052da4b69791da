/**
 * @module redis-down-at-start.test
 * A host started while its Redis is down listens at once: `/healthz` 200, the
 * catalog 200, `/readyz` 503 naming Redis, `/data` 503 in the service's words; it becomes
 * ready by itself when Redis comes, and computes. Also: the `/data` waiters of a host that was
 * killed stop holding their computation once its heartbeat expires, so a later DELETE of the
 * computation's job still stops it on the worker.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { controlTicker, getData, lineCount, QUOTED, readyz, room, startJob, startService, tag } from './service.ts';

describe('a host started while Redis is down', () => {
  it('listens at once, is not ready, answers 503 where Redis is needed, and joins when Redis comes', async () => {
    const service = await startService();
    await service.redis.stop();
    const host = await service.host();
    expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${host.url}/api/specimens`)).status).toBe(200);
    const notReady = await readyz(host);
    expect(notReady.status).toBe(503);
    expect(notReady.detail).toMatch(/Redis/);
    const data = await getData(host, 'count', { dir: service.runs, tag: tag(), delay_ms: 0 }, room());
    expect(data.status).toBe(503);
    expect(JSON.parse(data.body.toString())).toMatchObject({ code: 'SPC_ERR_REDIS_UNAVAILABLE' });
    expect(data.body.toString()).not.toMatch(QUOTED);

    await service.redis.restart();
    await waitFor(async () => ((await readyz(host)).status === 200 ? true : undefined), 'the host to become ready');
    await service.worker();
    expect((await getData(host, 'count', { dir: service.runs, tag: tag(), delay_ms: 0 }, room())).status).toBe(200);
  });
});

describe('the waiters of a killed host', () => {
  it('stop counting when its heartbeat expires: a later DELETE of the job still stops the computation', async () => {
    const service = await startService();
    const [a, b] = await Promise.all([service.host(), service.host()]);
    await service.worker({ poolSize: 1 });
    const t = tag();
    const roomId = room();
    const params = { dir: service.runs, tag: t, interval_ms: 20, seconds: 60 };
    // A waits on the computation with a /data request; B's job joins the same computation.
    const query = new URLSearchParams({ params: JSON.stringify(params), room_id: roomId });
    void fetch(`${a.url}/api/specimens/tick/data?${query}`).catch(() => {});
    await waitFor(() => (lineCount(service.runs, `${t}.ticks`) >= 3 ? true : undefined), 'the ticker to tick');
    const id = await startJob(b, 'tick', params, roomId);

    a.child.kill('SIGKILL');
    const redis = new Redis(service.redis.url);
    try {
      await waitFor(async () => ((await redis.zrangebyscore('vitrine:hosts', Date.now(), '+inf')).length === 1 ? true : undefined), "A's heartbeat to expire");
    } finally {
      redis.disconnect();
    }
    expect((await fetch(`${b.url}/api/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
    // The worker's one thread runs a control ticker only once the cancelled ticker's thread is
    // gone; while the control ticks at the same interval, the cancelled one adds no tick.
    const control = await controlTicker(b, service.runs, room(), () => lineCount(service.runs, `${t}.ticks`));
    expect(control.final).toMatchObject({ status: 'done' });
    expect(lineCount(service.runs, `${t}.ticks`)).toBe(control.atFirstTick);
  });
});
