/**
 * @module worker-failover.test
 * A worker SIGKILLed mid-job (compute-node.ts): it stops renewing its BullMQ
 * lock (10 s), a second worker's stalled check (every 5 s) takes the computation back and
 * runs it again, so the job still finishes `done` on the hosts. Its progress continues the
 * same sequence: every poll's messages extend the previous poll's (seq never goes back), the
 * seqs run 0, 1, 2, ... without a gap, and the second run's `tick 1` follows the first's ticks.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import type { RunningWorker } from '../helpers/spawn-worker.ts';
import { lineCount, progress, room, startJob, startService, tag, type ProgressBody, type Service } from './service.ts';

let service: Service;
let a: RunningHost;
let b: RunningHost;
let first: RunningWorker;

beforeAll(async () => {
  service = await startService();
  [a, b, first] = await Promise.all([service.host(), service.host(), service.worker({ poolSize: 1 })]);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('a worker killed mid-job', () => {
  it('hands the job to another worker: it finishes, its seq keeps increasing without going back', async () => {
    const t = tag();
    const ticks = `${t}.ticks`;
    // The job ticks until the test stops it (its 120 s only a backstop): it outlives the second
    // worker's start on the first one, and the failover.
    const id = await startJob(a, 'tick', { dir: service.runs, tag: t, interval_ms: 100, seconds: 120 }, room());
    await waitFor(() => (lineCount(service.runs, ticks) >= 3 ? true : undefined), 'the first worker to tick');
    const second = await service.worker({ poolSize: 1 });
    await waitFor(async () => ((await progress(b, id)).messages.length >= 3 ? true : undefined), 'progress on B');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBeNull();
    const ticksAtKill = lineCount(service.runs, ticks);

    // Poll both hosts through the failover; each answer must extend the one before.
    const polls: ProgressBody[] = [];
    const final = await waitFor(async () => {
      const body = await progress(polls.length % 2 === 0 ? a : b, id);
      polls.push(body);
      // Three ticks of the second run in: it may end.
      if (lineCount(service.runs, ticks) >= ticksAtKill + 3) writeFileSync(join(service.runs, `${t}.stop`), '');
      return body.status === 'running' ? undefined : body;
    }, 'the job to finish on the second worker', 60_000, 200);

    expect(final).toMatchObject({ status: 'done', error: null });
    for (let i = 1; i < polls.length; i++) {
      const before = polls[i - 1]!.messages.map((m) => m.seq);
      const now = polls[i]!.messages.map((m) => m.seq);
      expect(now.slice(0, before.length)).toEqual(before);
    }
    const seqs = final.messages.map((m) => m.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    // The second run started over (its own `tick 1`) after the first run's ticks.
    const restarts = final.messages.filter((m) => m.text === 'tick 1').map((m) => m.seq);
    expect(restarts).toHaveLength(2);
    expect(restarts[1]).toBeGreaterThanOrEqual(3);
    expect(lineCount(service.runs, ticks)).toBeGreaterThan(ticksAtKill);
    const result = await fetch(`${b.url}/api/jobs/${id}/result`);
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ type: 'mesh' });
    expect(second.child.exitCode).toBeNull();
  }, 120_000);
});
