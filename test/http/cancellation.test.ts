import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { addDynamicSpecimen, createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

/** A path the fixture function writes once it is running (not only queued). */
async function startedFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'vitrine-started-')), 'started');
}

async function start(app: FastifyInstance, id: string, params: object) {
  const res = await app.inject({ method: 'POST', url: `/api/specimens/${id}/start`, payload: { params, room_id: room() } });
  expect(res.statusCode).toBe(200);
  return res.json().job_id as string;
}

describe('cancellation', () => {
  it('a function that never checks is stopped by terminating its worker; the pool recovers', async () => {
    const app = await createTestApp({ poolSize: 1 });
    addDynamicSpecimen(app, 'spin', 'spin');
    const started = await startedFile();
    const id = await start(app, 'spin', { seconds: 60, started });
    await waitFor(() => (existsSync(started) ? true : undefined), 'the function to start spinning');
    const del = await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` });
    expect(del.statusCode).toBe(204);
    const progress = (await app.inject({ url: `/api/jobs/${id}/progress` })).json();
    expect(progress).toMatchObject({ status: 'error', error: 'cancelled' });
    // With a one-thread pool, this only answers if the spinning thread was really ended.
    const ok = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', room_id: room() } });
    expect(ok.statusCode).toBe(200);
    expect((await app.inject({ url: `/api/jobs/${id}/result` })).statusCode).toBe(410);
  });

  it('a function that takes an AbortSignal stops cooperatively', async () => {
    const app = await createTestApp({ poolSize: 1, cancelGraceMs: 60_000 });
    addDynamicSpecimen(app, 'coop', 'cooperative');
    const started = await startedFile();
    const id = await start(app, 'coop', { seconds: 60, started });
    await waitFor(() => (existsSync(started) ? true : undefined), 'the function to start');
    expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` })).statusCode).toBe(204);
    // The grace period is a minute, so this answers only if the signal stopped the function.
    const ok = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', room_id: room() } });
    expect(ok.statusCode).toBe(200);
  });

  it('progress polls are answered while CPU-bound jobs occupy every worker thread', async () => {
    const app = await createTestApp({ poolSize: 2 });
    addDynamicSpecimen(app, 'spin', 'spin');
    addDynamicSpecimen(app, 'stepper', 'steps');
    const a = await start(app, 'spin', { seconds: 20, seed: 1 });
    const b = await start(app, 'spin', { seconds: 20, seed: 2 });
    for (let i = 0; i < 20; i++) {
      const res = await app.inject({ url: `/api/jobs/${a}/progress` });
      expect(res.statusCode).toBe(200);
      expect(res.json().status).toBe('running');
    }
    await app.inject({ method: 'DELETE', url: `/api/jobs/${a}` });
    await app.inject({ method: 'DELETE', url: `/api/jobs/${b}` });
    const c = await start(app, 'stepper', { count: 2, delay_ms: 1 });
    expect((await waitForJob(app, c)).status).toBe('done');
  });
});
