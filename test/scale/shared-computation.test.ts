/**
 * @module shared-computation.test
 * One room, many hosts, one computation: peers of a room asking host A and host
 * B at once (`/data` on both, and `/invoke`) get identical bytes from a single run of
 * `counted` on the worker (it writes one line per run); `/start` on either then joins the
 * room's entry; cache stats on either host list the room's one entry; a cache clear on B
 * clears it for A (the next request computes again).
 */
import { describe, expect, it } from 'vitest';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { getData, invoke, lineCount, room, startJob, tag, useTwoHosts } from './service.ts';

const s = useTwoHosts();

interface Stats {
  total_entries: number;
  entries: { room_id: string; function_name: string }[];
}

async function stats(host: RunningHost): Promise<Stats> {
  return (await (await fetch(`${host.url}/api/processing/cache/stats`)).json()) as Stats;
}

describe('peers of one room on different hosts', () => {
  it('get identical bytes from one computation, on /data and /invoke alike', async () => {
    const roomId = room();
    const t = tag();
    const params = { dir: s.service.runs, tag: t, delay_ms: 800 };
    const answers = await Promise.all([
      getData(s.a, 'count', params, roomId),
      getData(s.b, 'count', params, roomId),
      getData(s.a, 'count', params, roomId),
      getData(s.b, 'count', params, roomId),
      invoke(s.b, 'counted', params, roomId),
    ]);
    const data = answers.slice(0, 4) as { status: number; body: Buffer }[];
    expect(data.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    for (const d of data.slice(1)) expect(d.body.equals(data[0]!.body)).toBe(true);
    const invoked = answers[4] as { status: number; body: Record<string, unknown> };
    expect(invoked.status).toBe(200);
    expect(invoked.body).toMatchObject({ type: 'mesh', vertices: [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0] });
    expect(lineCount(s.service.runs, `${t}.runs`)).toBe(1);

    // Later requests on either host, /start included, are the room's entry: still one run.
    expect((await getData(s.b, 'count', params, roomId)).body.equals(data[0]!.body)).toBe(true);
    expect((await invoke(s.a, 'counted', params, roomId)).body).toEqual(invoked.body);
    const res = await fetch(`${s.a.url}/api/specimens/count/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params, room_id: roomId }),
    });
    expect(await res.json()).toMatchObject({ status: 'done' });
    expect(lineCount(s.service.runs, `${t}.runs`)).toBe(1);
  });

  it('a job started on each host for the same values is one computation', async () => {
    const roomId = room();
    const t = tag();
    const params = { dir: s.service.runs, tag: t, delay_ms: 800 };
    const [j1, j2] = await Promise.all([startJob(s.a, 'count', params, roomId), startJob(s.b, 'count', params, roomId)]);
    expect(j1).not.toBe(j2);
    const [d1, d2] = await Promise.all([getData(s.b, 'count', params, roomId), getData(s.a, 'count', params, roomId)]);
    expect(d1.status).toBe(200);
    expect(d1.body.equals(d2.body)).toBe(true);
    const [r1, r2] = await Promise.all([fetch(`${s.b.url}/api/jobs/${j1}/result`), fetch(`${s.a.url}/api/jobs/${j2}/result`)]);
    expect([r1.status, r2.status]).toEqual([200, 200]);
    expect(await r1.text()).toBe(await r2.text());
    expect(lineCount(s.service.runs, `${t}.runs`)).toBe(1);
  });

  it('cache stats on either host list the room once; s.a clear on B clears it for A', async () => {
    const roomId = room();
    const t = tag();
    await getData(s.a, 'count', { dir: s.service.runs, tag: t, delay_ms: 0 }, roomId);
    // Other values in the same room replace its entry: still one entry for the room.
    await getData(s.b, 'count', { dir: s.service.runs, tag: t, delay_ms: 1 }, roomId);
    expect(lineCount(s.service.runs, `${t}.runs`)).toBe(2);
    for (const host of [s.a, s.b]) {
      const mine = (await stats(host)).entries.filter((e) => e.room_id === roomId);
      expect(mine).toEqual([expect.objectContaining({ room_id: roomId, function_name: 'counted' })]);
    }
    const clear = await fetch(`${s.b.url}/api/processing/cache/clear`, { method: 'POST' });
    expect(clear.status).toBe(200);
    expect(await clear.json()).toEqual({ status: 'cleared' });
    expect((await stats(s.a)).entries.filter((e) => e.room_id === roomId)).toEqual([]);
    // The entry is gone for A: the same request computes again.
    expect((await getData(s.a, 'count', { dir: s.service.runs, tag: t, delay_ms: 1 }, roomId)).status).toBe(200);
    expect(lineCount(s.service.runs, `${t}.runs`)).toBe(3);
  });
});
