/**
 * @module host-failover.test
 * A host SIGKILLed mid-job: the job it started lives in Redis and runs on the
 * worker, so it goes on; the other host answers its progress (which keeps growing) and its
 * result, and a `/data` for the same values in the same room on the other host joins that
 * one run instead of starting another.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { ended, getData, progress, room, startJob, tag, useTwoHosts } from './service.ts';

const s = useTwoHosts();

describe('a host killed mid-job', () => {
  it('leaves the job running: the other host answers its progress and result', async () => {
    const roomId = room();
    const params = { dir: s.service.runs, tag: tag(), interval_ms: 100, seconds: 2.5 };
    const id = await startJob(s.a, 'tick', params, roomId);
    const before = await waitFor(async () => {
      const body = await progress(s.a, id);
      return body.messages.length >= 3 ? body : undefined;
    }, 'progress on A');
    expect(await s.a.stop('SIGKILL')).toBeNull();
    await expect(fetch(`${s.a.url}/healthz`)).rejects.toThrow();

    const moreOnB = await waitFor(async () => {
      const body = await progress(s.b, id);
      return body.messages.length > before.messages.length ? body : undefined;
    }, 'more progress on B after the kill');
    expect(moreOnB.status).toBe('running');
    expect(moreOnB.messages.slice(0, before.messages.length)).toEqual(before.messages);
    const joined = await getData(s.b, 'tick', params, roomId);
    expect(joined.status).toBe(200);

    const final = await ended(s.b, id);
    expect(final).toMatchObject({ status: 'done', error: null });
    // One run: its ticks numbered once, its messages numbered from 0 without s.a gap.
    expect(final.messages.filter((m) => m.text === 'tick 1')).toHaveLength(1);
    expect(final.messages.map((m) => m.seq)).toEqual(final.messages.map((_, i) => i));
    const result = await fetch(`${s.b.url}/api/jobs/${id}/result`);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] });
  });
});
