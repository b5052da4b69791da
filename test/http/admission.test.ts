/**
 * Admission and fairness over HTTP: a room's backlog does not starve another room, and work
 * past --max-jobs is refused with 503 and Retry-After instead of queueing without end.
 */
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';

type App = Awaited<ReturnType<typeof createTestApp>>;

async function start(app: App, id: string, params: object, roomId: string) {
  return app.inject({ method: 'POST', url: `/api/specimens/${id}/start`, payload: { params, room_id: roomId } });
}

async function status(app: App, jobId: string): Promise<string> {
  return (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}/progress` })).json().status;
}

describe('compute fairness and admission', () => {
  it('serves another room at once while one room has a backlog of long jobs', async () => {
    const app = await createTestApp({ poolSize: 2, roomThreads: 1 });
    addDynamicSpecimen(app, 'coop', 'cooperative');
    const busy = room();
    const backlog: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await start(app, 'coop', { seconds: 30 + i }, busy);
      expect(res.statusCode).toBe(200);
      backlog.push(res.json().job_id);
    }
    // The busy room holds one thread; the other thread is free for a small request elsewhere.
    const other = await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${room()}` });
    expect(other.statusCode).toBe(200);
    for (const id of backlog) expect(await status(app, id)).toBe('running');
    for (const id of backlog) expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` })).statusCode).toBe(204);
  });

  it('refuses a job past --max-jobs with 503, Retry-After and the JSON error body', async () => {
    const app = await createTestApp({ poolSize: 2, maxJobs: 2 });
    addDynamicSpecimen(app, 'coop', 'cooperative');
    const r = room();
    const ids = [];
    for (const seconds of [30, 31]) ids.push((await start(app, 'coop', { seconds }, r)).json().job_id);
    const refused = await start(app, 'coop', { seconds: 32 }, r);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ status_code: 503, code: 'SPC_ERR_TOO_MANY_JOBS' });
    // A cache hit needs no compute, so it is never refused.
    const other = room();
    await app.inject({ method: 'GET', url: `/api/specimens/dyn-square/data?room_id=${other}` });
    expect((await start(app, 'dyn-square', {}, other)).json()).toMatchObject({ status: 'done' });
    for (const id of ids) await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` });
  });
});
