import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

async function start(app: Awaited<ReturnType<typeof createTestApp>>, id: string, params: object, r = room()) {
  const res = await app.inject({ method: 'POST', url: `/api/specimens/${id}/start`, payload: { params, room_id: r } });
  expect(res.statusCode).toBe(200);
  return res.json() as { job_id: string; status: string };
}

describe('jobs', () => {
  it('runs a job with progress, since, and result; a cache hit starts done', async () => {
    const app = await createTestApp();
    // dyn-square is a specimen.json specimen backed by the bundle's `square` (run in the pool).
    const r = room();
    const job = await start(app, 'dyn-square', { size: 3 }, r);
    expect(job.status).toBe('running');
    const done = await waitForJob(app, job.job_id);
    expect(done).toMatchObject({ status: 'done', error: null });
    const result = await app.inject({ url: `/api/jobs/${job.job_id}/result` });
    expect(result.statusCode).toBe(200);
    expect(result.json().vertices.slice(3, 6)).toEqual([3, 0, 0]);
    const again = await start(app, 'dyn-square', { size: 3 }, r);
    expect(again.status).toBe('done');
  });

  it('collects one progress message per report, filtered by since', async () => {
    const app = await createTestApp();
    const res = await app.inject({ method: 'POST', url: '/api/specimens/steps/start', payload: {} });
    // `steps` is not a specimen id yet; show the bundle function as one.
    expect(res.statusCode).toBe(404);
    addDynamicSpecimen(app, 'steps-spec', 'steps');
    const job = await start(app, 'steps-spec', { count: 4, delay_ms: 10 });
    const done = await waitForJob(app, job.job_id);
    expect(done.messages.map((m) => m.text)).toEqual(['step 1/4', 'step 2/4', 'step 3/4', 'step 4/4']);
    expect(done.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    for (const m of done.messages) expect(m.ts).toBeGreaterThan(1.7e9);
    const since = (await app.inject({ url: `/api/jobs/${job.job_id}/progress?since=1` })).json();
    expect(since.messages.map((m: { seq: number }) => m.seq)).toEqual([2, 3]);
    expect((await app.inject({ url: `/api/jobs/${job.job_id}/progress?since=x` })).statusCode).toBe(400);
    // The Ascribe-XR client starts by function name.
    const byFunction = await app.inject({ method: 'POST', url: '/api/specimens/steps/start', payload: { params: { count: 1, delay_ms: 1 } } });
    expect(byFunction.statusCode).toBe(200);
  });

  it('answers 409 while running, 410 after failure, 404 for unknown ids', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'slow', 'cooperative');
    addDynamicSpecimen(app, 'fails', 'explode');
    const slow = await start(app, 'slow', { seconds: 30 });
    const running = await app.inject({ url: `/api/jobs/${slow.job_id}/result` });
    expect(running.statusCode).toBe(409);
    expect(running.json().detail).toContain('Job still running');
    const failing = await start(app, 'fails', {});
    const failed = await waitForJob(app, failing.job_id);
    expect(failed.status).toBe('error');
    expect(failed.error).toContain('boom');
    const gone = await app.inject({ url: `/api/jobs/${failing.job_id}/result` });
    expect(gone.statusCode).toBe(410);
    expect(gone.json().detail).toContain('Job failed');
    for (const url of ['/api/jobs/nope/result', '/api/jobs/nope/progress']) expect((await app.inject({ url })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: '/api/jobs/nope' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${slow.job_id}` })).statusCode).toBe(204);
  });

  it('sweeps finished jobs after the job time-to-live, keeping the result in the room cache', async () => {
    const app = await createTestApp({ jobTtlSeconds: 0.2 });
    const r = room();
    const job = await start(app, 'dyn-square', { size: 4 }, r);
    await waitForJob(app, job.job_id);
    // The sweep forgets the finished job: its progress answers 404 once the time-to-live is up.
    await waitFor(
      async () => ((await app.inject({ url: `/api/jobs/${job.job_id}/progress` })).statusCode === 404 ? true : undefined),
      'the finished job to be swept',
    );
    expect((await app.inject({ url: `/api/jobs/${job.job_id}/result` })).statusCode).toBe(404);
    const again = await start(app, 'dyn-square', { size: 4 }, r);
    expect(again.status).toBe('done');
  });
});
