/**
 * @module outage
 * The probe's store outage during a soak: on a Redis service whose results live in S3 (Swift),
 * a job is started every 250 ms (each a 1 MiB volume in a room of its own) and followed to its
 * end; 5 s in, Swift's proxy is stopped for 13 s and started again, and jobs keep coming for
 * 10 s more. A result computed while the store is down is held and stored once it is back, so
 * no job should end `error`. Measures how many did, of how many, and the time from the store
 * back to every job ended.
 */
import { fmt } from '../host-helpers.ts';
import { post } from '../room-streams.ts';
import { startS3Service } from './s3-service.ts';
import type { ProbePart } from './part.ts';

const OUTAGE_MS = 13_000;
const BEFORE_MS = 5000;
const AFTER_MS = 10_000;
const EVERY_MS = 250;
const END_LIMIT_MS = 180_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Tracked {
  id: string;
  startedAt: number;
  status: string;
  error: string | null;
  endedAt: number;
}

async function measure(): Promise<string[]> {
  const service = await startS3Service();
  const base = service.host.url;
  const jobs: Tracked[] = [];
  const refused = new Map<number, number>();
  let starting = true;
  let seed = 0;
  const starter = (async () => {
    while (starting) {
      const t = performance.now();
      const n = ++seed;
      const res = await post(base, '/api/specimens/float_volume/start', { params: { megabytes: 1, seed: n }, room_id: `soak-${n}` });
      const body = (await res.json()) as { job_id?: string };
      if (body.job_id) jobs.push({ id: body.job_id, startedAt: t, status: 'running', error: null, endedAt: 0 });
      else refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
      await sleep(Math.max(0, EVERY_MS - (performance.now() - t)));
    }
  })();
  let following = true;
  const follower = (async () => {
    while (following) {
      for (const job of jobs.filter((j) => j.status === 'running')) {
        const res = await fetch(`${base}/api/jobs/${job.id}/progress`).catch(() => null);
        if (res?.status !== 200) continue;
        const progress = (await res.json()) as { status: string; error: string | null };
        if (progress.status === 'running') continue;
        Object.assign(job, { status: progress.status, error: progress.error, endedAt: performance.now() });
      }
      await sleep(100);
    }
  })();
  try {
    await sleep(BEFORE_MS);
    const down = performance.now();
    await service.swift.outage();
    await sleep(OUTAGE_MS);
    await service.swift.restore();
    const back = performance.now();
    await sleep(AFTER_MS);
    starting = false;
    await starter;
    const deadline = performance.now() + END_LIMIT_MS;
    while (jobs.some((j) => j.status === 'running') && performance.now() < deadline) await sleep(200);
    following = false;
    await follower;
    const during = jobs.filter((j) => j.startedAt < back && (j.endedAt === 0 || j.endedAt > down));
    const failed = jobs.filter((j) => j.status === 'error');
    const running = jobs.filter((j) => j.status === 'running').length;
    const lastEnded = Math.max(...during.map((j) => j.endedAt));
    const errors = [...new Set(failed.map((j) => j.error))].join('; ');
    const refusals = [...refused].map(([status, n]) => `${status}: ${n}`).join(', ') || 'none';
    return [
      `jobs ended error: ${failed.length} of ${jobs.length} run (target 0)${errors ? ` (${errors})` : ''}; still running at the end: ${running}; ` +
        `/start refused: ${refusals}`,
      `jobs the outage met (running at or started during it): ${during.length}; store back -> every one ended: ` +
        `${running ? `not within ${END_LIMIT_MS / 1000} s` : `${fmt((lastEnded - back) / 1000, 1)} s`}`,
    ];
  } finally {
    starting = false;
    following = false;
    await Promise.allSettled([starter, follower]);
    await service.stop();
  }
}

export const outagePart: ProbePart = {
  name: 'outage',
  title: `S3 store (Swift) stopped for ${OUTAGE_MS / 1000} s while a job starts every ${EVERY_MS} ms on a Redis service`,
  measure,
};
