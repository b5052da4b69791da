/**
 * The short lane across a Redis service: while long runs from twenty rooms fill the compute
 * queue (two compute threads, fifteen computations or more still queued behind the ones taken), a
 * short computation queued after them is computed and answered, every long one still running
 * or queued. (No timing is asserted: queued first in, first out, the short request would wait
 * for the long runs, a minute each, and its bounded wait would fail naming it.) The long
 * function's one trial in the short lane holds while its run runs, however long the starts
 * take. And the records that choose the lane, against a real Redis: the last runs' lengths,
 * one trial for an untimed function.
 */
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunRecords } from '../../core/scale/run-records.ts';
import { LANE_QUEUES } from '../../core/scale/work-queue.ts';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { settled, waitFor } from '../helpers/wait-for.ts';

let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { lazyConnect: false });
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

async function start(app: FastifyInstance, id: string, params: object): Promise<string> {
  const starting = app.inject({ method: 'POST', url: `/api/specimens/${id}/start`, payload: { params, room_id: room() } });
  const res = await settled(starting, `the start of a run of ${id}`);
  expect(res.statusCode).toBe(200);
  return res.json().job_id as string;
}

const statusOf = async (app: FastifyInstance, id: string) => ((await app.inject({ url: `/api/jobs/${id}/progress` })).json() as { status: string }).status;

/** Computations waiting in a BullMQ queue (BullMQ's own `wait` list). */
const waiting = (queue: string) => client.llen(`bull:${queue}:wait`);

/** Resolves once the trial of untimed function `fn` is renewed (its time to live grows between two reads). */
async function trialRenewed(fn: string): Promise<void> {
  let least = Number.POSITIVE_INFINITY;
  await waitFor(async () => {
    const ttl = await client.pttl(`vitrine:runs:${fn}:trial`);
    if (ttl > least) return true;
    if (ttl > 0) least = ttl;
    return undefined;
  }, `the trial of ${fn} renewed while its run runs`);
}

describe('the short lane on a Redis service', () => {
  it('computes a short miss queued behind twenty long runs in twenty rooms', async () => {
    const app = await createTestApp({ poolSize: 2, redis: redis.url, cancelGraceMs: 100 });
    addDynamicSpecimen(app, 'spin', 'spin');
    const long: string[] = [];
    try {
      for (let i = 0; i < 20; i++) long.push(await start(app, 'spin', { seconds: 60, seed: i }));
      // The node takes a few (twice its threads, and the untimed function's one trial by the
      // short lane); the rest wait in the compute queue.
      const queued = await waitFor(async () => {
        const n = await waiting(LANE_QUEUES.compute);
        return n >= 15 ? n : undefined;
      }, 'fifteen long runs queued');
      // The trial lasts while its run does: starts spread over more than its first time to live
      // would otherwise put a second long run in the short lane.
      await trialRenewed('spin');
      expect(await waiting(LANE_QUEUES.short)).toBe(0);
      for (let size = 1; size <= 3; size++) {
        const invoke = app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', kwargs: { size }, room_id: room() } });
        const res = await settled(invoke, `the short computation of square (size ${size}) behind the long runs`);
        expect(res.statusCode).toBe(200);
        expect(res.json().type).toBe('mesh');
      }
      // The long runs ahead of it in the queue are still there, none of them over.
      expect(await waiting(LANE_QUEUES.compute)).toBe(queued);
      for (const id of long) expect(await statusOf(app, id)).toBe('running');
    } finally {
      // Ended here, failed or not, so closing the host does not wait for them.
      for (const id of long) await settled(app.inject({ method: 'DELETE', url: `/api/jobs/${id}` }), `the cancel of long run ${id}`);
    }
  });

  it('chooses the lane from the last runs anywhere, and tries an untimed function once at a time', async () => {
    const records = new RunRecords(client);
    const fn = `fn-${room()}`;
    expect(await records.isShort(fn)).toBe(true);
    // Its trial is under way: the next run of an untimed function waits in the general lane.
    expect(await records.isShort(fn)).toBe(false);
    await records.record(fn, 900);
    await records.record(fn, 1200);
    expect(await new RunRecords(client).isShort(fn)).toBe(false);
    // Half of the last four short: short again (one slow run on a busy machine changes nothing).
    await records.record(fn, 12);
    await records.record(fn, 30);
    expect(await new RunRecords(client).isShort(fn)).toBe(true);
    expect(await client.lrange(`vitrine:runs:${fn}`, 0, -1)).toEqual(['30', '12', '1200', '900']);
    await records.record(fn, 8);
    expect(await client.llen(`vitrine:runs:${fn}`)).toBe(4);
  });
});
