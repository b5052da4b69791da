/**
 * @module cancel-across-hosts.test
 * DELETE on any host stops a computation wherever it runs: a `ticker` job
 * started on host A runs on the worker (the hosts are front ends, `--compute 0`); DELETE on
 * host B answers 204, the job ends `error`/`cancelled` as host A sees it, and the worker's
 * thread is freed: the ticker (which ignores its signal, so only the worker ending its
 * thread stops it) writes no more ticks once a second has passed since the DELETE answered,
 * and the worker then runs the next computation.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { controlTicker, ended, lineCount, progress, room, startJob, tag, useTwoHosts } from './service.ts';

// One thread: the next computation can only run once the cancelled one's thread is freed.
const s = useTwoHosts({ poolSize: 1 });

describe('DELETE on another host', () => {
  it('ends the job error/cancelled everywhere and stops the function on the worker', async () => {
    const t = tag();
    const ticks = `${t}.ticks`;
    const roomId = room();
    const id = await startJob(s.a, 'tick', { dir: s.service.runs, tag: t, interval_ms: 20, seconds: 60 }, roomId);
    await waitFor(() => (lineCount(s.service.runs, ticks) >= 5 ? true : undefined), 'the ticker to tick on the worker');
    await waitFor(async () => ((await progress(s.b, id)).messages.length > 0 ? true : undefined), 'progress on B');

    const del = await fetch(`${s.b.url}/api/jobs/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(204);
    const final = await ended(s.a, id);
    expect(final).toMatchObject({ status: 'error', error: 'cancelled' });
    const result = await fetch(`${s.a.url}/api/jobs/${id}/result`);
    expect(result.status).toBe(410);

    // The worker's one thread is free: the next computation runs. From its first tick on, the
    // cancelled ticker's thread is gone, so while the next one ticks at the same interval, the
    // cancelled one adds no tick.
    const next = await controlTicker(s.b, s.service.runs, roomId, () => lineCount(s.service.runs, ticks));
    expect(next.final).toMatchObject({ status: 'done' });
    expect(await ended(s.a, next.id)).toMatchObject({ status: 'done' });
    expect(next.ticks).toBeGreaterThan(0);
    expect(lineCount(s.service.runs, ticks)).toBe(next.atFirstTick);
    // A second DELETE of the ended job changes nothing.
    expect((await fetch(`${s.a.url}/api/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await progress(s.b, id)).toMatchObject({ status: 'error', error: 'cancelled' });
  });
});
