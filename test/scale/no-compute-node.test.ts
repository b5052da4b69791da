/**
 * @module no-compute-node.test
 * A function no live compute node can run: with front-end hosts only
 * (`--compute 0`) and no worker, `/data`, `/invoke` and `/start` answer 503 with a detail
 * naming the function, at once; a worker without that plugin changes nothing. Once a worker
 * that has it joins, the same requests compute, and a worker lacking the plugin alongside it
 * never takes (and fails) that function's computations. When that worker is SIGKILLed, a
 * `/data` waiting on it answers 503 naming the function (once its heartbeat lapses) instead
 * of waiting for ever.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import type { RunningWorker } from '../helpers/spawn-worker.ts';
import { getData, invoke, lineCount, room, startService, tag, type Service } from './service.ts';

let service: Service;
let a: RunningHost;
let empty: string;
let full: RunningWorker | undefined;

async function expectNoNode(res: Response | { status: number; body: unknown }, fn: string): Promise<void> {
  const body = res instanceof Response ? ((await res.json()) as unknown) : res.body;
  expect(res.status).toBe(503);
  expect(body).toMatchObject({ status_code: 503, detail: expect.stringContaining(`'${fn}'`) });
}

async function unservedRequests(): Promise<void> {
  const params = { dir: service.runs, tag: tag(), delay_ms: 0 };
  const data = await getData(a, 'count', params, room());
  await expectNoNode({ status: data.status, body: JSON.parse(data.body.toString('utf8')) }, 'counted');
  await expectNoNode(await invoke(a, 'steps', { count: 1 }, room()), 'steps');
  const start = await fetch(`${a.url}/api/specimens/tick/start`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ params: { seconds: 1 }, room_id: room() }),
  });
  await expectNoNode(start, 'ticker');
  expect(lineCount(service.runs, `${params.tag}.runs`)).toBe(0);
}

beforeAll(async () => {
  service = await startService();
  a = await service.host();
  empty = await mkdtemp(join(tmpdir(), 'vitrine-no-plugins-'));
});

afterAll(async () => {
  await a?.stop();
});

describe('a function no live compute node can run', () => {
  it('answers 503 naming the function when no compute node runs at all', async () => {
    await unservedRequests();
  });

  it('answers 503 naming the function when the only worker lacks its plugin', async () => {
    await service.worker({ plugins: empty, poolSize: 1 });
    await unservedRequests();
  });

  it('computes once a worker with the plugin joins, and the worker without it never takes its work', async () => {
    full = await service.worker({ poolSize: 1 });
    const t = tag();
    await waitFor(
      async () => ((await getData(a, 'count', { dir: service.runs, tag: t, delay_ms: 0 }, room())).status === 200 ? true : undefined),
      'a worker with the plugin to be found',
    );
    // Both workers take from one queue: every request must still land where it can run.
    for (let i = 1; i <= 8; i++) {
      const res = await getData(a, 'count', { dir: service.runs, tag: t, delay_ms: i }, room());
      expect({ i, status: res.status, body: res.status === 200 ? '' : res.body.toString('utf8') }).toEqual({ i, status: 200, body: '' });
    }
    expect(lineCount(service.runs, `${t}.runs`)).toBe(9);
  });

  it('answers a /data waiting on the only capable worker with 503 when that worker is killed', async () => {
    const t = tag();
    const waiting = getData(a, 'count', { dir: service.runs, tag: t, delay_ms: 60_000 }, room());
    await waitFor(() => (lineCount(service.runs, `${t}.runs`) === 1 ? true : undefined), 'the computation to start on the worker');
    full!.child.kill('SIGKILL');
    const res = await waiting;
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ status_code: 503, detail: expect.stringContaining("'counted'") });
  });
});
