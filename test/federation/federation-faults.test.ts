/**
 * Federation faults with real processes: a worker killed mid-job, a worker restarted, a
 * relay restarted, a wrong token, and a second connection under an id already in use.
 */
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixturePlugins, FIXTURES, NO_PLUGINS, workerArgs } from './helpers/fixture-build.ts';
import { catalogIds, eventually, killAll, registered, startHost } from './helpers/host-process.ts';

type Json = Record<string, unknown>;
let plugins: { dir: string };
const SPECIMENS_A = path.join(FIXTURES, 'specimens-a');
const SPECIMENS_B = path.join(FIXTURES, 'specimens-b');

async function getJson(url: string): Promise<Json> {
  return (await (await fetch(url)).json()) as Json;
}


beforeAll(async () => {
  plugins = await sharedFixturePlugins();
});

afterEach(async () => {
  await killAll();
});

describe('a worker that goes away', () => {
  it('ends its running jobs as errors, fails pending requests with 502 and leaves the catalog; restarted, it comes back', async () => {
    const relay = await startHost(['--relay', '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS]);
    const worker = await startHost(workerArgs(relay.url, 'w1', plugins.dir, SPECIMENS_B));
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

    await startHost(workerArgs(relay.url, 'w1', plugins.dir, SPECIMENS_B));
    await registered(relay, 'w1:box');
    const again = await fetch(`${relay.url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: 'w1:cube' }),
    });
    expect(again.status).toBe(200);
  });
});

describe('a relay restart', () => {
  it('is survived by every worker: they reconnect and re-register', async () => {
    const relay = await startHost(['--relay', '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS]);
    const port = relay.port;
    const worker1 = await startHost(workerArgs(relay.url, 'w1', plugins.dir, SPECIMENS_B));
    const worker2 = await startHost(workerArgs(relay.url, 'w2', NO_PLUGINS, SPECIMENS_A));
    await registered(relay, 'w1:box');
    await registered(relay, 'w2:tri');
    await relay.kill('SIGKILL');
    await worker1.waitForLog('lost the relay');
    const relay2 = await startHost(['--relay', '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS], { port });
    await registered(relay2, 'w1:box');
    await registered(relay2, 'w2:tri');
    const res = await fetch(`${relay2.url}/api/specimens/w2:tri/data`);
    expect(await res.text()).toBe('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expect(worker2.logs()).toMatch(/joined relay[\s\S]*lost the relay[\s\S]*joined relay/);
  });
});

describe('admission', () => {
  it('refuses a worker with a wrong or missing token; nothing is registered', async () => {
    const relay = await startHost(['--relay', '--token', 'right', '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS]);
    const wrong = await startHost(workerArgs(relay.url, 'bad', plugins.dir, SPECIMENS_B, ['--token', 'wrong']));
    const none = await startHost(workerArgs(relay.url, 'none', plugins.dir, SPECIMENS_B));
    await wrong.waitForLog('the relay refused this worker (4001');
    await none.waitForLog('the relay refused this worker (4001');
    await relay.waitForLog('worker none presented no valid token');
    expect(await catalogIds(relay)).toEqual(['tri']);
    expect(await getJson(`${relay.url}/api/federation/workers`)).toEqual([]);
    const fns = (await getJson(`${relay.url}/api/processing/functions`)) as unknown as Json[];
    expect(fns).toEqual([]);
    const good = await startHost(workerArgs(relay.url, 'good', plugins.dir, SPECIMENS_B, ['--token', 'right']));
    await registered(relay, 'good:box');
    expect(good.logs()).not.toMatch(/refused/);
  });

  it('a second connection with an id in use replaces the first cleanly', async () => {
    const relay = await startHost(['--relay', '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS]);
    const first = await startHost(workerArgs(relay.url, 'w1', NO_PLUGINS, SPECIMENS_B));
    await registered(relay, 'w1:tri');
    expect((await getJson(`${relay.url}/api/specimens/w1:tri`)).display_name).toBe('Triangle B');
    await startHost(workerArgs(relay.url, 'w1', NO_PLUGINS, SPECIMENS_A));
    await eventually(
      async () => ((await getJson(`${relay.url}/api/specimens/w1:tri`)).display_name === 'Triangle A' ? true : undefined),
      'the newer registration',
    );
    await first.waitForLog('(4003');
    // The old socket's close must not remove the new registration.
    await relay.waitForLog('the older connection is replaced');
    expect((await getJson(`${relay.url}/api/specimens/w1:tri`)).display_name).toBe('Triangle A');
    const res = await fetch(`${relay.url}/api/specimens/w1:tri/data`);
    expect(await res.text()).toBe('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n');
    expect((await getJson(`${relay.url}/api/federation/workers`)) as unknown as Json[]).toHaveLength(1);
  });
});
