/**
 * @module push-across-hosts.test
 * Push on any host of a Redis service: a client reading a room's events on host
 * A gets `state` first, then `computing` and `result` when another client's `/data` on host
 * B computes in that room (and the next reader on A starts from that entry); a job started on
 * A streamed from host B gives its progress events with `id:` = seq, resumes after
 * `Last-Event-ID` with neither gap nor repeat, and ends with `done` and the stream's close.
 */
import { describe, expect, it } from 'vitest';
import { openStream, type StreamEvent } from '../helpers/sse-reader.ts';
import { getData, room, startJob, tag, useTwoHosts } from './service.ts';

const s = useTwoHosts();

const seqs = (events: StreamEvent[]) => events.filter((e) => e.event === 'progress').map((e) => (e.data as { seq: number }).seq);

describe('push across hosts', () => {
  it('a reader on A sees state, then computing and result for s.a /data on B', async () => {
    const roomId = room();
    const stream = await openStream(`${s.a.url}/api/rooms/${roomId}/events`);
    try {
      const first = await stream.next();
      expect(first).toMatchObject({ event: 'state', data: null });
      const params = { dir: s.service.runs, tag: tag(), delay_ms: 300 };
      const data = await getData(s.b, 'count', params, roomId);
      expect(data.status).toBe(200);
      const computing = await stream.next((e) => e.event === 'computing');
      const result = await stream.next((e) => e.event === 'result');
      expect(stream.events.indexOf(computing)).toBeLessThan(stream.events.indexOf(result));
      expect(computing.data).toMatchObject({ function_name: 'counted', specimen_id: 'count' });
      const expected = { function_name: 'counted', specimen_id: 'count', params, type: 'mesh' };
      expect(result.data).toMatchObject(expected);
      // A new reader on A starts from the entry B's request made.
      const late = await openStream(`${s.a.url}/api/rooms/${roomId}/events`);
      try {
        expect(await late.next()).toMatchObject({ event: 'state', data: expected });
      } finally {
        late.close();
      }
    } finally {
      stream.close();
    }
  });

  it('a job started on A streams from B with id = seq, resumes after Last-Event-ID, ends with done', async () => {
    const id = await startJob(s.a, 'steps', { count: 6, delay_ms: 150 }, room());
    const first = await openStream(`${s.b.url}/api/jobs/${id}/events`);
    await first.next((e) => e.id === '1');
    first.close();
    expect(seqs(first.events).slice(0, 2)).toEqual([0, 1]);
    expect(first.events[0]).toMatchObject({ event: 'progress', id: '0', data: { seq: 0, text: 'step 1/6' } });

    const resumed = await openStream(`${s.b.url}/api/jobs/${id}/events`, { 'last-event-id': '1' });
    await resumed.ended;
    expect(seqs(resumed.events)).toEqual([2, 3, 4, 5]);
    expect(resumed.events.filter((e) => e.event === 'progress').map((e) => e.id)).toEqual(['2', '3', '4', '5']);
    expect(resumed.events.at(-1)).toMatchObject({ event: 'done', data: { job_id: id, status: 'done', error: null } });

    // A late reader on A replays the whole sequence.
    const late = await openStream(`${s.a.url}/api/jobs/${id}/events`);
    await late.ended;
    expect(seqs(late.events)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(late.events.at(-1)?.event).toBe('done');
  });

  it('a job started on A and failing on the worker ends with error on B', async () => {
    const res = await fetch(`${s.a.url}/api/specimens/boom/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: { message: 'kaput' }, room_id: room() }),
    });
    const { job_id: id } = (await res.json()) as { job_id: string };
    const stream = await openStream(`${s.b.url}/api/jobs/${id}/events`);
    await stream.ended;
    expect(stream.events.at(-1)).toMatchObject({ event: 'error', data: { job_id: id, status: 'error', error: expect.stringContaining('kaput') } });
  });
});
