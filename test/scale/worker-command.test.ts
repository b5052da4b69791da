/**
 * @module worker-command.test
 * `vitrine worker` as a process: without `--redis` it exits 2 with the usage on
 * standard error; ready, it prints `worker ready`; SIGTERM while idle exits 0 at once, and
 * the service then has no compute node (503 naming the function); SIGTERM mid-job takes
 * nothing new but finishes the job it runs, then exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { runWorker } from '../helpers/spawn-worker.ts';
import { WORKER_FLAGS } from '../../core/cli/worker-command.ts';
import { ended, getData, progress, room, startJob, startService, tag, type Service } from './service.ts';

let service: Service;
let host: RunningHost;

beforeAll(async () => {
  service = await startService();
  host = await service.host();
});

afterAll(async () => {
  await host?.stop();
});

describe('vitrine worker', () => {
  it('exits 2 with the usage on stderr without --redis', async () => {
    const worker = runWorker(['--pool-size', '1']);
    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toMatch(/--redis URL is required/);
    expect(worker.stderr()).toMatch(/usage: vitrine worker --redis URL/);
    expect(worker.stdout()).not.toMatch(/worker ready/);
  });

  it('lists every flag it takes in --help, --s3-endpoint among them', async () => {
    const worker = runWorker(['--help']);
    expect(await worker.exited).toBe(0);
    for (const flag of WORKER_FLAGS) expect(worker.stdout(), flag).toContain(`--${flag} `);
    expect(worker.stdout()).toMatch(/--s3-endpoint URL +the S3 endpoint of an s3:\/\/ blob store/);
  });

  it('exits 2 on a --redis that is no redis:// URL', async () => {
    const worker = runWorker(['--redis', 'http://127.0.0.1:1']);
    expect(await worker.exited).toBe(2);
    expect(worker.stderr()).toMatch(/usage: vitrine worker/);
  });

  it('prints worker ready once it takes work, and exits 0 on SIGTERM while idle', async () => {
    const worker = await service.worker({ poolSize: 1 });
    expect(worker.stdout()).toBe('worker ready\n');
    const roomId = room();
    expect((await getData(host, 'count', { dir: service.runs, tag: tag(), delay_ms: 0 }, roomId)).status).toBe(200);
    expect(await worker.stop('SIGTERM')).toBe(0);
    // Gone from the service: nothing is left to compute.
    const res = await getData(host, 'count', { dir: service.runs, tag: tag(), delay_ms: 0 }, roomId);
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ status_code: 503, detail: expect.stringContaining("'counted'") });
  });

  it('finishes the job it runs on SIGTERM, then exits 0', async () => {
    const worker = await service.worker({ poolSize: 1 });
    const id = await startJob(host, 'steps', { count: 8, delay_ms: 200 }, room());
    await waitFor(async () => ((await progress(host, id)).messages.length >= 1 ? true : undefined), 'the job to run on the worker');
    const exit = worker.stop('SIGTERM');
    expect(await ended(host, id)).toMatchObject({ status: 'done', error: null });
    expect(await exit).toBe(0);
    expect((await progress(host, id)).messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});
