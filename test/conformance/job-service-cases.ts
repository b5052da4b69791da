/**
 * @module job-service-cases
 * The JobService conformance cases: what every implementation (in-memory LocalJobs, the Redis
 * service) must do alike — the job states and their transitions (pending, running, then
 * done or error, never back), progress with `since`, result 200/409/410/404, cancellation that really stops
 * the function, cache hits that start done, change nudges and counts.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import type { ProgressResponse } from '../../core/wire/wire-types.ts';
import { room } from '../helpers/create-test-app.ts';
import { countDir, failure, linesIn, quiet, use, type JobServiceHarness } from './service-harness.ts';

/** The job's progress once it is no longer running. */
function settled(h: JobServiceHarness, id: string): Promise<ProgressResponse> {
  return waitFor(async () => {
    const progress = await h.jobs.progress(id, -1);
    return progress.status === 'running' ? undefined : progress;
  }, `job ${id} to end`);
}

/** Resolves once the job has at least `count` progress messages. */
function messages(h: JobServiceHarness, id: string, count: number): Promise<ProgressResponse> {
  return waitFor(async () => {
    const progress = await h.jobs.progress(id, -1);
    return progress.messages.length >= count ? progress : undefined;
  }, `${count} messages of job ${id}`);
}

export function jobServiceCases(make: () => Promise<JobServiceHarness>): void {
  describe('JobService', () => {
    it('starts a job running that ends done with its result', async () => {
      const h = await use(make);
      const started = await h.jobs.start(h.request('steps', { count: 2, delay_ms: 50 }, room()));
      expect(started.status).toBe('running');
      expect(typeof started.job_id).toBe('string');
      expect(await settled(h, started.job_id)).toMatchObject({ status: 'done', error: null });
      const { result, functionName } = await h.jobs.result(started.job_id);
      expect(functionName).toBe('steps');
      expect(result.type).toBe('mesh');
    });

    it('lists progress messages in order from seq 0, only those above `since`, ts in epoch seconds', async () => {
      const h = await use(make);
      const before = Date.now() / 1000;
      const { job_id: id } = await h.jobs.start(h.request('steps', { count: 4, delay_ms: 10 }, room()));
      const done = await settled(h, id);
      const after = Date.now() / 1000;
      expect(done.messages.map((m) => m.text)).toEqual(['step 1/4', 'step 2/4', 'step 3/4', 'step 4/4']);
      expect(done.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
      for (const m of done.messages) {
        expect(m.ts).toBeGreaterThanOrEqual(before - 1);
        expect(m.ts).toBeLessThanOrEqual(after + 1);
      }
      expect((await h.jobs.progress(id, 1)).messages.map((m) => m.seq)).toEqual([2, 3]);
      expect((await h.jobs.progress(id, 3)).messages).toEqual([]);
      expect((await h.jobs.progress(id, -1)).messages).toHaveLength(4);
    });

    it('answers the result with 409 while running, then 200 once done', async () => {
      const h = await use(make);
      const { job_id: id } = await h.jobs.start(h.request('steps', { count: 10, delay_ms: 100 }, room()));
      const running = await failure(h.jobs.result(id));
      expect(running).toMatchObject({ code: 'SPC_ERR_JOB_RUNNING', statusCode: 409 });
      expect(running.message).toContain('Job still running');
      await settled(h, id);
      expect((await h.jobs.result(id)).result.type).toBe('mesh');
    });

    it('ends a failing job as error with its message; its result answers 410', async () => {
      const h = await use(make);
      const { job_id: id } = await h.jobs.start(h.request('explode', { message: 'kaput' }, room()));
      const ended = await settled(h, id);
      expect(ended.status).toBe('error');
      expect(ended.error).toContain('kaput');
      const gone = await failure(h.jobs.result(id));
      expect(gone).toMatchObject({ code: 'SPC_ERR_JOB_FAILED', statusCode: 410 });
      expect(gone.message).toContain('Job failed');
      expect(gone.message).toContain('kaput');
    });

    it('answers 404 for an unknown id on progress and result; cancel says false', async () => {
      const h = await use(make);
      const unknown = 'no-such-job';
      expect(await failure(h.jobs.progress(unknown, -1))).toMatchObject({ code: 'SPC_ERR_JOB_NOT_FOUND', statusCode: 404 });
      expect(await failure(h.jobs.result(unknown))).toMatchObject({ code: 'SPC_ERR_JOB_NOT_FOUND', statusCode: 404 });
      expect(await h.jobs.cancel(unknown)).toBe(false);
    });

    it('cancel ends the job as error "cancelled", really stops the function, and adds no message after', async () => {
      const h = await use(make);
      const dir = await countDir();
      const { job_id: id } = await h.jobs.start(h.request('ticker', { dir }, room()));
      await messages(h, id, 2);
      expect(await h.jobs.cancel(id)).toBe(true);
      const ended = await settled(h, id);
      expect(ended).toMatchObject({ status: 'error', error: 'cancelled' });
      await quiet(() => linesIn(dir, 'ticks.ticks'), 'the cancelled ticker');
      const later = await h.jobs.progress(id, -1);
      expect(later).toMatchObject({ status: 'error', error: 'cancelled' });
      expect(later.messages).toEqual(ended.messages);
      expect(await failure(h.jobs.result(id))).toMatchObject({ statusCode: 410 });
    });

    it('starts done on a room-cache hit, its result readable at once', async () => {
      const h = await use(make);
      const r = room();
      const first = await h.jobs.start(h.request('square', { size: 3 }, r));
      await settled(h, first.job_id);
      const again = await h.jobs.start(h.request('square', { size: 3 }, r));
      expect(again.status).toBe('done');
      expect(again.job_id).not.toBe(first.job_id);
      const { result } = await h.jobs.result(again.job_id);
      expect(result.type === 'mesh' && Array.from(result.vertices.slice(3, 6))).toEqual([3, 0, 0]);
      expect((await h.jobs.progress(again.job_id, -1)).status).toBe('done');
    });

    it('reads a finished job’s result twice; cancelling it then changes nothing', async () => {
      const h = await use(make);
      const { job_id: id } = await h.jobs.start(h.request('square', { size: 2 }, room()));
      await settled(h, id);
      const one = await h.jobs.result(id);
      const two = await h.jobs.result(id);
      expect(two.functionName).toBe('square');
      if (one.result.type === 'mesh' && two.result.type === 'mesh') expect(Array.from(two.result.vertices)).toEqual(Array.from(one.result.vertices));
      await h.jobs.cancel(id);
      expect((await h.jobs.progress(id, -1)).status).toBe('done');
      expect((await h.jobs.result(id)).result.type).toBe('mesh');
    });

    it('watch nudges on progress messages and when the job ends; not after unsubscribing', async () => {
      const h = await use(make);
      const { job_id: id } = await h.jobs.start(h.request('ticker', { dir: '' }, room()));
      const seen: ProgressResponse[] = [];
      let nudges = 0;
      const off = h.jobs.watch(id, () => {
        nudges++;
        void h.jobs.progress(id, -1).then((p) => seen.push(p));
      });
      try {
        await waitFor(() => (seen.some((p) => p.status === 'running' && p.messages.length > 0) ? true : undefined), 'a nudge on a message');
        await h.jobs.cancel(id);
        await waitFor(() => (seen.some((p) => p.status === 'error') ? true : undefined), 'a nudge on the end');
      } finally {
        off();
      }
      const { job_id: other } = await h.jobs.start(h.request('ticker', { dir: '' }, room()));
      let otherNudges = 0;
      const offOther = h.jobs.watch(other, () => otherNudges++);
      await waitFor(() => (otherNudges > 0 ? true : undefined), 'a nudge for the second job');
      offOther();
      const after = otherNudges;
      const shown = (await h.jobs.progress(other, -1)).messages.length;
      await messages(h, other, shown + 3);
      expect(otherNudges).toBe(after);
      expect(nudges).toBeGreaterThan(0);
      await h.jobs.cancel(other);
      // Ended before the next case, which may count the jobs of the same host.
      await settled(h, other);
    });

    it('watch nudges when a job ends done', async () => {
      const h = await use(make);
      const { job_id: id } = await h.jobs.start(h.request('steps', { count: 2, delay_ms: 50 }, room()));
      const seen: ProgressResponse[] = [];
      const off = h.jobs.watch(id, () => void h.jobs.progress(id, -1).then((p) => seen.push(p)));
      try {
        await waitFor(() => (seen.some((p) => p.status === 'done') ? true : undefined), 'a nudge on done');
      } finally {
        off();
      }
    });

    it('counts jobs by state', async () => {
      const h = await use(make);
      // Counted from a host with no job running: an earlier case's jobs on a shared host have
      // all ended, though a Redis host may count one as running until it reads it again.
      const start = await waitFor(() => {
        const now = h.jobs.counts();
        return now.running === 0 ? now : undefined;
      }, 'the jobs of earlier cases counted as ended');
      const { job_id: ticking } = await h.jobs.start(h.request('ticker', { dir: '' }, room()));
      await waitFor(() => (h.jobs.counts().running === start.running + 1 ? true : undefined), 'one more running job');
      const { job_id: done } = await h.jobs.start(h.request('square', {}, room()));
      await settled(h, done);
      await h.jobs.cancel(ticking);
      await settled(h, ticking);
      const expected = { running: start.running, done: start.done + 1, error: start.error + 1 };
      await waitFor(() => {
        const now = h.jobs.counts();
        return now.running === expected.running && now.done === expected.done && now.error === expected.error ? true : undefined;
      }, `counts ${JSON.stringify(expected)}, last ${JSON.stringify(h.jobs.counts())}`);
    });
  });
}
