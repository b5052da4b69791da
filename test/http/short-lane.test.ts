/**
 * The short lane, with real worker threads: while long runs from more rooms than there are
 * threads hold every general compute thread, a short computation in another room is computed
 * and answered, every long run still running. Long work never takes the lane: an unknown
 * function runs there once at most, and a run that turns out long leaves the lane for the next
 * short one. (No timing is asserted: without the lane, each short request below would wait for
 * the long runs, 600 s each, and the test would time out. They are that long so that on a
 * machine slowed many times over they are still running when the test looks.)
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';

async function start(app: FastifyInstance, id: string, params: object): Promise<string> {
  const res = await app.inject({ method: 'POST', url: `/api/specimens/${id}/start`, payload: { params, room_id: room() } });
  expect(res.statusCode).toBe(200);
  return res.json().job_id as string;
}

const statusOf = async (app: FastifyInstance, id: string) => ((await app.inject({ url: `/api/jobs/${id}/progress` })).json() as { status: string }).status;

async function metric(app: FastifyInstance, name: string): Promise<number> {
  const text = (await app.inject({ url: '/metrics' })).body;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

async function invokeSquare(app: FastifyInstance, size: number) {
  const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square', kwargs: { size }, room_id: room() } });
  expect(res.statusCode).toBe(200);
  return res.json() as { type: string };
}

describe('the short lane', () => {
  it('computes short work in other rooms while long runs from many rooms hold every thread', async () => {
    const app = await createTestApp({ poolSize: 2 });
    addDynamicSpecimen(app, 'spin', 'spin');
    const long = [];
    for (let i = 0; i < 6; i++) long.push(await start(app, 'spin', { seconds: 600, seed: i }));
    // Both general threads run spins; the other four wait their turn (a long function is
    // never put in the lane, even before its first run is over).
    await waitFor(
      async () => ((await metric(app, 'vitrine_compute_threads_busy')) === 2 && (await metric(app, 'vitrine_compute_queued')) === 4 ? true : undefined),
      'two spins running and four queued',
    );
    for (let size = 1; size <= 5; size++) expect((await invokeSquare(app, size)).type).toBe('mesh');
    for (const id of long) expect(await statusOf(app, id)).toBe('running');
    expect(await metric(app, 'vitrine_compute_queued')).toBe(4);
    for (const id of long) await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` });
  });

  it('moves a run that turns out long out of the lane, so the next short run still gets it', async () => {
    const app = await createTestApp({ poolSize: 1, cancelGraceMs: 100 });
    addDynamicSpecimen(app, 'spin', 'spin');
    addDynamicSpecimen(app, 'coop', 'cooperative');
    const spinning = await start(app, 'spin', { seconds: 600 });
    await waitFor(async () => ((await metric(app, 'vitrine_compute_threads_busy')) === 1 ? true : undefined), 'the spin running');
    // Never run before, so it is given the lane once; it runs for ten minutes.
    const misjudged = await start(app, 'coop', { seconds: 600 });
    await waitFor(async () => ((await metric(app, 'vitrine_compute_threads_busy')) === 2 ? true : undefined), 'the unknown function running');
    expect((await invokeSquare(app, 2)).type).toBe('mesh');
    expect(await statusOf(app, spinning)).toBe('running');
    expect(await statusOf(app, misjudged)).toBe('running');
    // Now known to be long, it waits for the general thread like any long run.
    const second = await start(app, 'coop', { seconds: 600 });
    await waitFor(async () => ((await metric(app, 'vitrine_compute_queued')) === 1 ? true : undefined), 'the second long run queued');
    expect((await invokeSquare(app, 3)).type).toBe('mesh');
    for (const id of [spinning, misjudged, second]) await app.inject({ method: 'DELETE', url: `/api/jobs/${id}` });
  });
});
