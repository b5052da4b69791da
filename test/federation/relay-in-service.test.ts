/**
 * A relay that is part of a Redis service (`--relay --redis URL`), with real processes: a
 * `redis-server`, the relay host, another host of the service, and a worker joined to the
 * relay over WebSocket. The worker's specimens and functions are listed on the other host and
 * run through it (the relay runs them on the worker); its jobs are the worker's; a worker
 * leaving takes its entries off the other host and ends its running job there as an error.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { room } from '../helpers/room.ts';
import { sharedFixturePlugins, FIXTURES, NO_PLUGINS, workerArgs } from './helpers/fixture-build.ts';
import { catalogIds, eventually, killAll, registered, startHost, type HostProcess } from './helpers/host-process.ts';
import { getJson, postJson, type Json } from './helpers/json-http.ts';

const SPECIMENS_A = path.join(FIXTURES, 'specimens-a');
const SPECIMENS_B = path.join(FIXTURES, 'specimens-b');

let plugins: { dir: string };
let redis: RedisServer;
let relay: HostProcess;
let other: HostProcess;
let worker: HostProcess;

async function functionNames(host: HostProcess): Promise<string[]> {
  return ((await (await fetch(`${host.url}/api/processing/functions`)).json()) as { name: string }[]).map((f) => f.name);
}

/** Starts a slow-box job on `host` in a room of its own; its id. */
async function startSlow(host: HostProcess, steps: number, ms: number): Promise<string> {
  const { status, body } = await postJson(`${host.url}/api/specimens/w1:slow-box/start`, { params: { steps, ms }, room_id: room() });
  expect(status).toBe(200);
  return String(body.job_id);
}

function progress(host: HostProcess, id: string): Promise<Json> {
  return getJson(`${host.url}/api/jobs/${id}/progress?since=-1`).then((r) => r.body);
}

function ended(host: HostProcess, id: string): Promise<Json> {
  return eventually(async () => {
    const p = await progress(host, id);
    return p.status === 'running' ? undefined : p;
  }, `job ${id} to end on ${host.url}`);
}

function progressed(host: HostProcess, id: string): Promise<true> {
  return eventually(async () => (((await progress(host, id)).messages as Json[]).length > 0 ? true : undefined), `progress of job ${id}`);
}

beforeAll(async () => {
  [plugins, redis] = await Promise.all([sharedFixturePlugins(), startRedis()]);
  const service = ['--redis', redis.url, '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS];
  [relay, other] = await Promise.all([startHost(['--relay', ...service]), startHost(service)]);
  worker = await startHost(workerArgs(relay.url, 'w1', plugins.dir, SPECIMENS_B));
  await registered(other, 'w1:box', 'w1:slow-box', 'w1:tri');
}, 120_000);

afterAll(async () => {
  await killAll();
  await redis?.stop();
});

describe('a relay in a Redis service', () => {
  it('lists the worker’s specimens and functions on another host of the service', async () => {
    expect(await functionNames(other)).toEqual(expect.arrayContaining(['w1:cube', 'w1:slow', 'w1:big_volume']));
    const { body } = await getJson(`${other.url}/api/specimens/w1:box`);
    expect(body).toMatchObject({ id: 'w1:box', is_dynamic: true, type: 'mesh', function_name: 'w1:cube' });
    const schema = await getJson(`${other.url}/api/processing/functions/w1:cube/schema`);
    expect(schema.status).toBe(200);
    expect(JSON.stringify(schema.body)).toContain('"size"');
    // Files of relayed specimens come through the relay host, the same bytes as from it.
    for (const what of ['data', 'thumbnail']) {
      const fromRelay = await fetch(`${relay.url}/api/specimens/w1:tri/${what}`);
      const fromOther = await fetch(`${other.url}/api/specimens/w1:tri/${what}`);
      expect([fromRelay.status, fromOther.status]).toEqual([200, 200]);
      expect(fromOther.headers.get('content-type')).toBe(fromRelay.headers.get('content-type'));
      const [a, b] = [Buffer.from(await fromRelay.arrayBuffer()), Buffer.from(await fromOther.arrayBuffer())];
      expect(b.length).toBeGreaterThan(0);
      expect(b.equals(a)).toBe(true);
    }
  });

  it('runs the worker’s function through the other host: /invoke and /data answer what the worker computes', async () => {
    const through = await postJson(`${other.url}/api/processing/invoke`, { function_name: 'w1:cube', kwargs: { size: 3 }, room_id: 'invoke-room' });
    const direct = await postJson(`${worker.url}/api/processing/invoke`, { function_name: 'cube', kwargs: { size: 3 } });
    expect(through.status).toBe(200);
    expect(through.body.vertices).toEqual(direct.body.vertices);
    expect(through.body.indices).toEqual(direct.body.indices);
    const query = new URLSearchParams({ params: JSON.stringify({ size: 2 }), room_id: 'data-room' });
    const [viaOther, viaWorker] = await Promise.all([
      fetch(`${other.url}/api/specimens/w1:box/data?${query}`),
      fetch(`${worker.url}/api/specimens/box/data?${new URLSearchParams({ params: JSON.stringify({ size: 2 }) })}`),
    ]);
    expect(viaOther.status).toBe(200);
    expect(Buffer.from(await viaOther.arrayBuffer()).equals(Buffer.from(await viaWorker.arrayBuffer()))).toBe(true);
  });

  it('runs a job started on the other host on the worker, with its progress and result on the other host', async () => {
    const id = await startSlow(other, 5, 40);
    const done = await ended(other, id);
    expect(done.status).toBe('done');
    expect((done.messages as Json[]).map((m) => m.text)).toEqual(['step 1/5', 'step 2/5', 'step 3/5', 'step 4/5', 'step 5/5']);
    const since = await getJson(`${other.url}/api/jobs/${id}/progress?since=${String((done.messages as Json[])[2]!.seq)}`);
    expect((since.body.messages as Json[]).map((m) => m.text)).toEqual(['step 4/5', 'step 5/5']);
    expect((await fetch(`${other.url}/api/jobs/${id}/result`)).status).toBe(200);
    // The worker owns the job: it keeps it under the same id.
    expect(await progress(worker, id)).toMatchObject({ status: 'done' });
  });

  it('cancels a running relayed job from the other host: the worker’s job ends too', async () => {
    const id = await startSlow(other, 400, 50);
    await progressed(other, id);
    expect((await fetch(`${other.url}/api/jobs/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await ended(other, id)).toMatchObject({ status: 'error' });
    expect((await ended(worker, id)).status).not.toBe('running');
  });

  it('runs a worker of a second relay through the first: each relay takes only its own workers’ computations', async () => {
    const relay2 = await startHost(['--relay', '--redis', redis.url, '--specimens', SPECIMENS_A, '--plugins', NO_PLUGINS]);
    await startHost(workerArgs(relay2.url, 'w2', plugins.dir, SPECIMENS_B));
    await registered(relay, 'w2:box');
    const answers = await Promise.all(
      [1, 2, 3, 4].map((size) => postJson(`${relay.url}/api/processing/invoke`, { function_name: 'w2:cube', kwargs: { size }, room_id: `w2-${size}` })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(await functionNames(other)).toEqual(expect.arrayContaining(['w1:cube', 'w2:cube']));
    await relay2.kill('SIGKILL');
    await eventually(
      async () => ((await catalogIds(other)).some((entry) => entry.startsWith('w2:')) ? undefined : true),
      'the dead relay’s worker to leave the other host',
    );
  });

  it('a worker leaving takes its entries off the other host and ends its running job there as an error', async () => {
    const id = await startSlow(other, 400, 50);
    await progressed(other, id);
    const query = new URLSearchParams({ params: JSON.stringify({ steps: 300, ms: 50 }), room_id: 'pending-room' });
    const logged = worker.logs().length;
    const pending = fetch(`${other.url}/api/specimens/w1:slow-box/data?${query}`);
    // The worker logs the /data request's run as it starts it.
    await worker.waitForLog('function=slow params=[steps,ms]', logged);
    await worker.kill('SIGKILL');

    const job = await ended(other, id);
    expect(job).toMatchObject({ status: 'error' });
    expect(job.error).toMatch(/worker w1 disconnected/);
    const answer = await pending;
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as Json).detail).toMatch(/worker w1 disconnected/);
    await eventually(
      async () => ((await catalogIds(other)).some((entry) => entry.startsWith('w1:')) ? undefined : true),
      'w1 to leave the other host’s catalog',
    );
    expect((await functionNames(other)).filter((name) => name.startsWith('w1:'))).toEqual([]);
    expect((await fetch(`${other.url}/api/specimens/w1:box/data`)).status).toBe(404);
    expect((await catalogIds(relay)).filter((entry) => entry.startsWith('w1:'))).toEqual([]);
  });
});
