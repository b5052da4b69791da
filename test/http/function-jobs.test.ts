/**
 * A function started as a job without a specimen (`POST /api/processing/functions/{name}/start`):
 * it answers what the specimen `/start` answers, and the job then works with every job route
 * (progress with `since`, the event stream over real HTTP, result, DELETE); a room cache hit
 * starts done; the room's entry names the function and no specimen. Its faults are the
 * specimen `/start`'s: a bad parameter or room id is a 400 naming it, an unknown function a 404,
 * a cross-site write or a foreign `Host` a 403. `/openapi.json` lists it with each function's
 * parameter schema.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const startUrl = (name: string) => `/api/processing/functions/${name}/start`;

async function start(app: FastifyInstance, name: string, params: object, roomId = room()): Promise<{ job_id: string; status: string }> {
  const res = await app.inject({ method: 'POST', url: startUrl(name), payload: { params, room_id: roomId } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('a function started as a job', () => {
  it('reports progress on the job routes and its event stream, then its result; a cache hit starts done', async () => {
    const app = await createTestApp();
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    const r = room();
    const job = await start(app, 'steps', { count: 4, delay_ms: 40 }, r);
    expect(job).toEqual({ job_id: expect.any(String), status: 'running' });

    const stream = await openStream(`${url}/api/jobs/${job.job_id}/events`);
    await stream.ended;
    const progress = stream.events.filter((e) => e.event === 'progress');
    expect(progress.map((e) => (e.data as { text: string }).text)).toEqual(['step 1/4', 'step 2/4', 'step 3/4', 'step 4/4']);
    expect(progress.map((e) => e.id)).toEqual(['0', '1', '2', '3']);
    expect(progress[1]?.data).toMatchObject({ seq: 1, fraction: 0.5 });
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { job_id: job.job_id, status: 'done', error: null } });

    const since = (await app.inject({ url: `/api/jobs/${job.job_id}/progress?since=1` })).json();
    expect(since).toMatchObject({ status: 'done', error: null });
    expect(since.messages.map((m: { seq: number }) => m.seq)).toEqual([2, 3]);

    const result = await app.inject({ url: `/api/jobs/${job.job_id}/result` });
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ type: 'mesh', vertices: [0, 0, 0, 4, 0, 0, 4, 4, 0, 0, 4, 0] });

    // The room now shows the function, named directly, with its defaults filled.
    const entry = (await app.inject({ url: `/api/rooms/${r}/entry` })).json();
    expect(entry).toMatchObject({ function_name: 'steps', specimen_id: null, params: { count: 4, delay_ms: 40 } });
    const again = await start(app, 'steps', { delay_ms: 40, count: 4 }, r);
    expect(again.status).toBe('done');
    expect((await app.inject({ url: `/api/jobs/${again.job_id}/result` })).json().type).toBe('mesh');
  });

  it('is cancelled by DELETE like any job: it ends error/cancelled and its result is gone', async () => {
    const app = await createTestApp({ poolSize: 1, cancelGraceMs: 60_000 });
    const started = join(await mkdtemp(join(tmpdir(), 'vitrine-started-')), 'started');
    const job = await start(app, 'cooperative', { seconds: 60, started });
    await waitFor(() => (existsSync(started) ? true : undefined), 'the function to start');
    expect((await app.inject({ url: `/api/jobs/${job.job_id}/result` })).statusCode).toBe(409);
    expect((await app.inject({ method: 'DELETE', url: `/api/jobs/${job.job_id}` })).statusCode).toBe(204);
    expect(await waitForJob(app, job.job_id)).toMatchObject({ status: 'error', error: 'cancelled' });
    expect((await app.inject({ url: `/api/jobs/${job.job_id}/result` })).statusCode).toBe(410);
    // One thread and a minute's grace: this answers only if the signal really stopped the function.
    const ok = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', room_id: room() } });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 400 naming a bad parameter or room, 404 for an unknown function, as the specimen /start does', async () => {
    const app = await createTestApp();
    const post = (name: string, payload: unknown) => app.inject({ method: 'POST', url: startUrl(name), payload: payload as object });
    const cases: [unknown, string][] = [
      [{ params: { count: 'four' } }, 'count'],
      [{ params: { count: 2.5 } }, 'count'],
      [{ params: { colour: 'red' } }, 'colour'],
      [{ params: [1, 2] }, 'params'],
      [{ room_id: 'a\nb' }, 'room_id'],
    ];
    for (const [payload, named] of cases) {
      const res = await post('steps', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().detail, JSON.stringify(payload)).toContain(named);
    }
    const needs = await post('needs', {});
    expect(needs.statusCode).toBe(400);
    expect(needs.json().detail).toContain('size');

    const unknown = await post('no_such_function', { params: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status_code: 404, code: 'SPC_ERR_FUNCTION_NOT_FOUND' });
    expect(unknown.json().detail).toContain('no_such_function');
    // The specimen route words the same fault the same way.
    const specimen = await app.inject({ method: 'POST', url: '/api/specimens/dyn-square/start', payload: { params: { size: 'x' } } });
    const fn = await post('square', { params: { size: 'x' } });
    expect([fn.statusCode, fn.json().code]).toEqual([specimen.statusCode, specimen.json().code]);
  });

  it('is refused as a write from another site, and under a Host the host does not answer to', async () => {
    const app = await createTestApp({ host: '0.0.0.0' });
    const cross = await app.inject({
      method: 'POST', url: startUrl('steps'), payload: {}, headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', host: 'localhost:8000' },
    });
    expect(cross.statusCode).toBe(403);
    expect(cross.json()).toMatchObject({ code: 'SPC_ERR_CROSS_SITE_WRITE' });
    const foreign = await app.inject({ method: 'POST', url: startUrl('steps'), payload: {}, headers: { host: 'gallery.example' } });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ code: 'SPC_ERR_HOST_NOT_ALLOWED' });
  });

  it('is in /openapi.json under processing, its name one of the functions and params each one\'s schema', async () => {
    const app = await createTestApp();
    const doc = (await app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/api/processing/functions/{name}/start']?.post;
    expect(op).toBeDefined();
    expect(op.tags).toEqual(['processing']);
    expect(op.summary).toMatch(/job/);
    expect(op.parameters[0].schema.enum).toEqual(expect.arrayContaining(['steps', 'square', 'cooperative']));
    const params = op.requestBody.content['application/json'].schema.properties.params;
    expect(params.anyOf).toContainEqual({ $ref: '#/components/schemas/FunctionParams.steps' });
    expect(doc.components.schemas['FunctionParams.steps']).toMatchObject({ title: 'steps', properties: { count: { type: 'integer' } } });
    expect(op.responses['200'].content['application/json'].schema.required).toEqual(['job_id', 'status']);
  });
});
