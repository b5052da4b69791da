/**
 * Federation faults with real processes: a worker killed mid-job, a worker restarted, a
 * relay restarted, a wrong token, and a second connection under an id already in use.
 *
 * One relay (asking for a token) serves every case, and the workers a case leaves standing
 * (`standing`) are the ones the relay restart must bring back: each spawned host costs seconds
 * of CPU, so only what a case kills or refuses is started for it alone. The relay restart runs
 * last, since it replaces the relay the others use.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixturePlugins, FIXTURES, NO_PLUGINS, workerArgs } from './helpers/fixture-build.ts';
import { catalogIds, eventually, killAll, registered, startHost, type HostProcess } from './helpers/host-process.ts';

type Json = Record<string, unknown>;
let plugins: { dir: string };
const SPECIMENS_A = path.join(FIXTURES, 'specimens-a');
const SPECIMENS_B = path.join(FIXTURES, 'specimens-b');
const TOKEN = ['--token', 'right'];
const RELAY_ARGS = ['--relay', ...TOKEN, '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS];
let relay: HostProcess;

async function getJson(url: string): Promise<Json> {
  return (await (await fetch(url)).json()) as Json;
}

/** Joins the relay with the right token: w1 serves the fixture plugins, w2 only specimens. */
const w1Args = (): string[] => workerArgs(relay.url, 'w1', plugins.dir, SPECIMENS_B, TOKEN);
const w2Args = (specimens: string): string[] => workerArgs(relay.url, 'w2', NO_PLUGINS, specimens, TOKEN);

/** Workers that stay joined once started (by whichever case needs them first). */
const started = new Map<string, Promise<HostProcess>>();
const standing = {
  w1: () => keep('w1', () => startHost(w1Args())),
  w2: () => keep('w2', () => startHost(w2Args(SPECIMENS_A))),
};
function keep(key: string, start: () => Promise<HostProcess>): Promise<HostProcess> {
  if (!started.has(key)) started.set(key, start());
  return started.get(key)!;
}

beforeAll(async () => {
  plugins = await sharedFixturePlugins();
  relay = await startHost(RELAY_ARGS);
});

afterAll(async () => {
  await killAll();
});

describe('a worker that goes away', () => {
  it('ends its running jobs as errors, fails pending requests with 502 and leaves the catalog; restarted, it comes back', async () => {
    const worker = await startHost(w1Args());
    await registered(relay, 'w1:slow-box');
    const start = (await (
      await fetch(`${relay.url}/api/specimens/w1:slow-box/start`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ params: { steps: 400, ms: 50 } }),
      })
    ).json()) as Json;
    const jobId = String(start.job_id);
    await eventually(
      async () => (((await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`)).messages as Json[]).length > 0 ? true : undefined),
      'progress',
    );
    const pending = fetch(`${relay.url}/api/specimens/w1:slow-box/data?params=${encodeURIComponent('{"steps":300,"ms":50}')}`);
    await worker.waitForLog('function=slow params=[steps,ms]');
    await worker.kill('SIGKILL');

    const answer = await pending;
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as Json).detail).toMatch(/w1.*disconnected/);
    const progress = await eventually(async () => {
      const p = await getJson(`${relay.url}/api/jobs/${jobId}/progress?since=-1`);
      return p.status === 'running' ? undefined : p;
    }, 'the job to end');
    expect(progress).toMatchObject({ status: 'error' });
    expect(progress.error).toMatch(/worker w1 disconnected/);
    expect((await catalogIds(relay)).filter((id) => id.startsWith('w1:'))).toEqual([]);
    const gone = await fetch(`${relay.url}/api/specimens/w1:box/data`);
    expect(gone.status).toBe(404);

    await standing.w1();
    await registered(relay, 'w1:box');
    const again = await fetch(`${relay.url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: 'w1:cube' }),
    });
    expect(again.status).toBe(200);
  });
});

describe('admission', () => {
  it('refuses a worker with a wrong or missing token; nothing is registered', async () => {
    // What the relay lists before: its own specimen, and whatever workers earlier cases left joined.
    const listed = async () => ({
      catalog: await catalogIds(relay),
      workers: await getJson(`${relay.url}/api/federation/workers`),
      functions: await getJson(`${relay.url}/api/processing/functions`),
    });
    const before = await listed();
    expect(before.catalog).toContain('tri');
    const wrong = await startHost(workerArgs(relay.url, 'bad', plugins.dir, SPECIMENS_B, ['--token', 'wrong']));
    const none = await startHost(workerArgs(relay.url, 'none', plugins.dir, SPECIMENS_B));
    await wrong.waitForLog('the relay refused this worker (4001');
    await none.waitForLog('the relay refused this worker (4001');
    await relay.waitForLog('worker none presented no valid token');
    const after = await listed();
    expect(after).toEqual(before);
    expect(after.catalog.filter((id) => /^(bad|none):/.test(id))).toEqual([]);
    const good = await standing.w1();
    await registered(relay, 'w1:box');
    expect(good.logs()).not.toMatch(/refused/);
  });

  it('a second connection with an id in use replaces the first cleanly', async () => {
    const first = await startHost(w2Args(SPECIMENS_B));
    await registered(relay, 'w2:tri');
    expect((await getJson(`${relay.url}/api/specimens/w2:tri`)).display_name).toBe('Triangle B');
    await standing.w2();
    await eventually(
      async () => ((await getJson(`${relay.url}/api/specimens/w2:tri`)).display_name === 'Triangle A' ? true : undefined),
      'the newer registration',
    );
    await first.waitForLog('(4003');
    // The old socket's close must not remove the new registration.
    await relay.waitForLog('the older connection is replaced');
    expect((await getJson(`${relay.url}/api/specimens/w2:tri`)).display_name).toBe('Triangle A');
    const res = await fetch(`${relay.url}/api/specimens/w2:tri/data`);
    expect(await res.text()).toBe('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    const workers = (await getJson(`${relay.url}/api/federation/workers`)) as unknown as Json[];
    expect(workers.filter((w) => w.worker_id === 'w2')).toHaveLength(1);
  });
});

describe('a relay restart', () => {
  it('is survived by every worker: they reconnect and re-register', async () => {
    const [worker1, worker2] = await Promise.all([standing.w1(), standing.w2()]);
    await registered(relay, 'w1:box', 'w2:tri');
    const port = relay.port;
    const [from1, from2] = [worker1.logs().length, worker2.logs().length];
    await relay.kill('SIGKILL');
    await worker1.waitForLog('lost the relay', from1);
    relay = await startHost(RELAY_ARGS, { port });
    await registered(relay, 'w1:box', 'w2:tri');
    const res = await fetch(`${relay.url}/api/specimens/w2:tri/data`);
    expect(await res.text()).toBe('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expect(worker2.logs().slice(from2)).toMatch(/lost the relay[\s\S]*joined relay/);
    expect(worker2.logs()).toMatch(/joined relay[\s\S]*lost the relay[\s\S]*joined relay/);
  });
});
