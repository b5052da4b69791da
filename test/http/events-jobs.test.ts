/**
 * The job event stream (`GET /api/jobs/{id}/events`) over real HTTP: progress events whose
 * `id:` is the seq, the `done`/`error` end event with the job status JSON and the close;
 * resuming with Last-Event-ID and with ?since (neither gaps nor repeats); the JSON errors
 * decided before the stream opens; a stream that only the re-read timer drives (nudges
 * lost); and the watch released when the client goes away.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { eventRoutes } from '../../core/http/events/routes-events.ts';
import { StreamLimit } from '../../core/events/stream-limit.ts';
import { jobChannel } from '../../core/events/channels.ts';
import type { JobService } from '../../core/jobs/job-service.ts';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { openStream, type StreamEvent } from '../helpers/sse-reader.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';

async function startJob(url: string, specimen: string, params: object): Promise<string> {
  const res = await fetch(`${url}/api/specimens/${specimen}/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params, room_id: room() }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { job_id: string }).job_id;
}

async function listening(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

const seqs = (events: StreamEvent[]) => events.filter((e) => e.event === 'progress').map((e) => (e.data as { seq: number }).seq);

describe('job event stream', () => {
  it('sends each progress message with its seq as id, then done with the job status, and closes', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'steps-spec', 'steps');
    const url = await listening(app);
    const id = await startJob(url, 'steps-spec', { count: 4, delay_ms: 30 });
    const stream = await openStream(`${url}/api/jobs/${id}/events`);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await stream.ended;
    expect(stream.events.map((e) => e.event)).toEqual(['progress', 'progress', 'progress', 'progress', 'done']);
    expect(stream.events.slice(0, 4).map((e) => e.id)).toEqual(['0', '1', '2', '3']);
    expect(stream.events[0]?.data).toMatchObject({ seq: 0, text: 'step 1/4', fraction: 0.25 });
    expect(stream.events[4]?.data).toEqual({ job_id: id, status: 'done', error: null });
    // A finished job replays the same stream to a late subscriber.
    const late = await openStream(`${url}/api/jobs/${id}/events`);
    await late.ended;
    expect(seqs(late.events)).toEqual([0, 1, 2, 3]);
    expect(late.events.at(-1)?.event).toBe('done');
  });

  it('resumes after Last-Event-ID or ?since with neither gaps nor repeats (the header wins)', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'steps-spec', 'steps');
    const url = await listening(app);
    const id = await startJob(url, 'steps-spec', { count: 6, delay_ms: 100 });
    const first = await openStream(`${url}/api/jobs/${id}/events`);
    await first.next((e) => e.id === '1');
    first.close();
    const resumed = await openStream(`${url}/api/jobs/${id}/events`, { 'last-event-id': '1' });
    await resumed.ended;
    expect(seqs(resumed.events)).toEqual([2, 3, 4, 5]);
    expect(resumed.events.at(-1)).toMatchObject({ event: 'done', data: { job_id: id, status: 'done', error: null } });
    const since = await openStream(`${url}/api/jobs/${id}/events?since=3`);
    await since.ended;
    expect(seqs(since.events)).toEqual([4, 5]);
    const both = await openStream(`${url}/api/jobs/${id}/events?since=0`, { 'last-event-id': '4' });
    await both.ended;
    expect(seqs(both.events)).toEqual([5]);
  });

  it('answers an unknown job with the 404 JSON body and a bad since or Last-Event-ID with 400', async () => {
    const app = await createTestApp();
    const url = await listening(app);
    const unknown = await fetch(`${url}/api/jobs/nope/events`, { headers: { accept: 'text/event-stream' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await unknown.json()).toEqual({ status_code: 404, detail: "job 'nope' not found", code: 'SPC_ERR_JOB_NOT_FOUND' });
    const badSince = await fetch(`${url}/api/jobs/nope/events?since=x`);
    expect(badSince.status).toBe(400);
    expect(await badSince.json()).toMatchObject({ status_code: 400, code: 'SPC_ERR_SINCE_INVALID' });
    // A list's form of since is not since: refused, not read as absent (from the start).
    for (const path of ['/api/jobs/nope/events?since[]=1', '/api/jobs/nope/progress?since[]=1']) {
      const listed = await fetch(`${url}${path}`);
      expect(listed.status, path).toBe(400);
      expect(await listed.json()).toMatchObject({ code: 'SPC_ERR_SINCE_INVALID' });
    }
    const badHeader = await fetch(`${url}/api/jobs/nope/events`, { headers: { 'last-event-id': 'abc' } });
    expect(badHeader.status).toBe(400);
    expect(await badHeader.json()).toMatchObject({ code: 'SPC_ERR_SINCE_INVALID' });
    // Nothing is left watching after refused requests.
    expect(app.vitrine.eventListeners(jobChannel('nope'))).toBe(0);
  });

  it('ends with an error event for a failed job and for a job cancelled while streaming', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'fails', 'explode');
    addDynamicSpecimen(app, 'slow', 'cooperative');
    const url = await listening(app);
    const failing = await startJob(url, 'fails', {});
    const failed = await openStream(`${url}/api/jobs/${failing}/events`);
    await failed.ended;
    expect(failed.events.at(-1)).toMatchObject({ event: 'error', data: { job_id: failing, status: 'error' } });
    expect((failed.events.at(-1)?.data as { error: string }).error).toContain('boom');

    const slow = await startJob(url, 'slow', { seconds: 30 });
    const stream = await openStream(`${url}/api/jobs/${slow}/events`);
    expect((await fetch(`${url}/api/jobs/${slow}`, { method: 'DELETE' })).status).toBe(204);
    await stream.ended;
    expect(stream.events).toEqual([{ event: 'error', id: null, data: { job_id: slow, status: 'error', error: 'cancelled' } }]);
  });

  it('still delivers everything when no nudge ever arrives (the re-read timer)', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'steps-spec', 'steps');
    // A JobService whose nudges are all lost, as a Redis pub/sub message can be.
    const deaf = (jobs: JobService): JobService => ({
      start: (request) => jobs.start(request),
      progress: (jobId, since) => jobs.progress(jobId, since),
      result: (jobId) => jobs.result(jobId),
      cancel: (jobId) => jobs.cancel(jobId),
      watch: () => () => {},
      counts: () => jobs.counts(),
      close: () => jobs.close(),
    });
    await app.register(eventRoutes, {
      prefix: '/deaf',
      context: { ...hostContextOf(app), jobs: deaf(hostContextOf(app).jobs) },
      limit: new StreamLimit(10),
      jobRereadMs: 50,
    });
    const url = await listening(app);
    const id = await startJob(url, 'steps-spec', { count: 5, delay_ms: 40 });
    const stream = await openStream(`${url}/deaf/api/jobs/${id}/events`);
    await stream.ended;
    expect(seqs(stream.events)).toEqual([0, 1, 2, 3, 4]);
    expect(stream.events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
  });

  it('drops its watch when the client goes away', async () => {
    const app = await createTestApp();
    addDynamicSpecimen(app, 'slow', 'cooperative');
    const url = await listening(app);
    const id = await startJob(url, 'slow', { seconds: 30 });
    const events = { listenerCount: (channel: string) => app.vitrine.eventListeners(channel) };
    expect(events.listenerCount(jobChannel(id))).toBe(0);
    const stream = await openStream(`${url}/api/jobs/${id}/events`);
    expect(events.listenerCount(jobChannel(id))).toBe(1);
    stream.close();
    await waitFor(() => (events.listenerCount(jobChannel(id)) === 0) || undefined, 'the watch release');
    await fetch(`${url}/api/jobs/${id}`, { method: 'DELETE' });
  });
});
