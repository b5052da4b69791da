/**
 * The room event stream (`GET /api/rooms/{room_id}/events`) over real HTTP: `state` first
 * (null, or the entry with defaults filled), then `computing` and `result` caused by another
 * client's /invoke, /data and /start; a reconnecting subscriber gets `state` again; room ids
 * are validated; the subscription and the stream slot are released when the client goes
 * away; past the stream bound a new stream is a 503 with Retry-After; the OpenAPI document
 * lists the event routes.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { eventRoutes } from '../../core/http/events/routes-events.ts';
import { StreamLimit } from '../../core/events/stream-limit.ts';
import { roomChannel } from '../../core/events/channels.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';

const post = (url: string, body: object) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function listening(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

/** `square`'s parameters with its defaults filled, as the room shows them. */
const squareParams = (size: number) => ({ size, label: 'a', flag: false, note: '' });

/** A room entry's result id: the X-Result-Id of the answer that carried its result. */
const anyResultId = expect.stringMatching(/^[0-9a-f]{64}$/);

describe('room event stream', () => {
  it('opens with state, then computing and result for /invoke, /data and /start from another client', async () => {
    const app = await createTestApp();
    const url = await listening(app);
    const r = room();
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    expect(await stream.next()).toEqual({ event: 'state', id: null, data: null });

    const invokedAnswer = await post(`${url}/api/processing/invoke`, { function_name: 'square', kwargs: { size: 2 }, room_id: r });
    expect(invokedAnswer.status).toBe(200);
    // Each event says who made it: these requests name nobody, so the host says `anonymous`.
    const invoked = { function_name: 'square', specimen_id: null, params: squareParams(2), type: 'mesh', by: 'anonymous' };
    expect((await stream.next((e) => e.event === 'computing')).data).toEqual({ ...invoked, job_id: null });
    expect((await stream.next((e) => e.event === 'result')).data).toEqual({
      ...invoked,
      result_id: invokedAnswer.headers.get('x-result-id'),
      blob_id: invokedAnswer.headers.get('x-result-id'),
    });

    let from = stream.events.length;
    const data = await fetch(`${url}/api/specimens/dyn-square/data?params=${encodeURIComponent('{"size":3}')}&room_id=${r}`);
    expect(data.status).toBe(200);
    await data.arrayBuffer();
    const fetched = { function_name: 'square', specimen_id: 'dyn-square', params: squareParams(3), type: 'mesh', by: 'anonymous' };
    expect((await stream.next((e) => e.event === 'computing', from)).data).toEqual({ ...fetched, job_id: null });
    expect((await stream.next((e) => e.event === 'result', from)).data).toEqual({
      ...fetched,
      result_id: data.headers.get('x-result-id'),
      blob_id: data.headers.get('x-blob-id'),
    });

    from = stream.events.length;
    const started = await post(`${url}/api/specimens/dyn-square/start`, { params: { size: 4 }, room_id: r });
    const { job_id: jobId } = (await started.json()) as { job_id: string };
    const job = { function_name: 'square', specimen_id: 'dyn-square', params: squareParams(4), type: 'mesh', by: 'anonymous' };
    expect((await stream.next((e) => e.event === 'computing', from)).data).toEqual({ ...job, job_id: jobId });
    const jobResult = await stream.next((e) => e.event === 'result', from);
    expect(jobResult.data).toEqual({ ...job, result_id: anyResultId, blob_id: anyResultId });
    await waitFor(async () => ((await fetch(`${url}/api/jobs/${jobId}/result`)).status === 200 ? true : undefined), 'the job result');
    const fromJob = await fetch(`${url}/api/jobs/${jobId}/result`);
    expect(fromJob.headers.get('x-result-id')).toBe((jobResult.data as { result_id: string }).result_id);
    stream.close();

    // Another room hears nothing of this one.
    const other = await openStream(`${url}/api/rooms/${room()}/events`);
    expect((await other.next()).data).toBeNull();
    other.close();
  });

  it('gives a reconnecting subscriber the current state again', async () => {
    const app = await createTestApp();
    const url = await listening(app);
    const r = room();
    const first = await openStream(`${url}/api/rooms/${encodeURIComponent(r)}/events`);
    await first.next((e) => e.event === 'state');
    expect((await post(`${url}/api/processing/invoke`, { function_name: 'square', args: [5], room_id: r })).status).toBe(200);
    await first.next((e) => e.event === 'result');
    first.close();
    const again = await openStream(`${url}/api/rooms/${encodeURIComponent(r)}/events`);
    expect(await again.next()).toEqual({
      event: 'state',
      id: null,
      data: { function_name: 'square', specimen_id: null, params: squareParams(5), type: 'mesh', result_id: anyResultId, blob_id: anyResultId },
    });
    again.close();
  });

  it('refuses a room id longer than the limit with the 400 JSON body', async () => {
    const app = await createTestApp();
    const url = await listening(app);
    const res = await fetch(`${url}/api/rooms/${'x'.repeat(300)}/events`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ status_code: 400, code: 'SPC_ERR_BAD_REQUEST', detail: expect.stringContaining('room_id') });
  });

  it('drops its subscription when the client goes away', async () => {
    const app = await createTestApp();
    const url = await listening(app);
    const r = room();
    const events = { listenerCount: (channel: string) => app.vitrine.eventListeners(channel) };
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    await stream.next();
    // The stream's own, and the room's readers' (which end it should the room close to its client).
    expect(events.listenerCount(roomChannel(r))).toBe(2);
    stream.close();
    await waitFor(() => (events.listenerCount(roomChannel(r)) === 0) || undefined, 'the room subscription release');
  });

  it('refuses streams past the bound with 503 and Retry-After, and frees the slot on disconnect', async () => {
    const app = await createTestApp();
    const limit = new StreamLimit(1);
    await app.register(eventRoutes, { prefix: '/capped', context: hostContextOf(app), limit });
    const url = await listening(app);
    const first = await openStream(`${url}/capped/api/rooms/${room()}/events`);
    await first.next();
    const refused = await fetch(`${url}/capped/api/rooms/${room()}/events`, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ status_code: 503, code: 'SPC_ERR_TOO_MANY_STREAMS' });
    first.close();
    await waitFor(() => (limit.open === 0) || undefined, 'the stream slot release');
    const next = await openStream(`${url}/capped/api/rooms/${room()}/events`);
    expect((await next.next()).event).toBe('state');
    next.close();
  });
});

describe('event routes in the OpenAPI document', () => {
  it('lists the host, job and room streams with their events, and stays a valid document', async () => {
    const app = await createTestApp();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    for (const path of ['/api/events', '/api/jobs/{id}/events', '/api/rooms/{room_id}/events']) expect(Object.keys(doc.paths)).toContain(path);
    const job = doc.paths['/api/jobs/{id}/events'].get;
    expect(Object.keys(job.responses['200'].content['text/event-stream']['x-events'])).toEqual(['progress', 'done', 'error']);
    expect(job.responses['4XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
    const roomStream = doc.paths['/api/rooms/{room_id}/events'].get;
    expect(Object.keys(roomStream.responses['200'].content['text/event-stream']['x-events'])).toEqual([
      'state',
      'computing',
      'result',
      'failed',
      'view',
      'scene',
      'annotation',
      'replay',
      'presence',
    ]);
  });
});
