/**
 * @module jobs-across-hosts.test
 * A job started on one host of a Redis service is known to every host: host B
 * answers the progress (with `since`) and the result (409 while running, 200 after) of a job
 * host A started and a worker computes, its messages in order with seq from 0; an unknown id
 * is a 404 with the JSON error body on B.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { ended, progress, room, startJob, useTwoHosts } from './service.ts';

const s = useTwoHosts();

describe('a job started on one host', () => {
  it('is followed on the other: progress with since, result 409 then 200, messages in order from seq 0', async () => {
    const id = await startJob(s.a, 'steps', { count: 6, delay_ms: 250 }, room());
    // Running, with some messages: B sees them and refuses the result.
    const partial = await waitFor(async () => {
      const body = await progress(s.b, id);
      return body.status === 'running' && body.messages.length >= 2 ? body : undefined;
    }, 'two progress messages on B');
    expect(partial.messages.slice(0, 2).map((m) => [m.seq, m.text])).toEqual([[0, 'step 1/6'], [1, 'step 2/6']]);
    const early = await fetch(`${s.b.url}/api/jobs/${id}/result`);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ status_code: 409, code: 'SPC_ERR_JOB_RUNNING' });
    // `since` is the highest seq already seen: only later messages come back.
    const later = await progress(s.b, id, 0);
    expect(later.messages[0]?.seq).toBe(1);

    const final = await ended(s.b, id);
    expect(final).toMatchObject({ status: 'done', error: null });
    expect(final.messages.map((m) => m.seq)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(final.messages.map((m) => m.text)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `step ${i}/6`));
    expect(final.messages.map((m) => m.fraction)).toEqual([1, 2, 3, 4, 5, 6].map((i) => i / 6));
    expect((await progress(s.b, id, 3)).messages.map((m) => m.seq)).toEqual([4, 5]);
    expect((await progress(s.a, id, 5)).messages).toEqual([]);

    const result = await fetch(`${s.b.url}/api/jobs/${id}/result`);
    expect(result.status).toBe(200);
    // The host that answers says what made it, though another host started the job.
    expect(result.headers.get('vitrine-provenance')).toMatch(/^[\w.-]+@[\w.+-]+; bundle=[0-9a-f]{12}$/);
    expect(result.headers.get('vitrine-provenance')).toBe((await fetch(`${s.a.url}/api/jobs/${id}/result`)).headers.get('vitrine-provenance'));
    const mesh = (await result.json()) as { type: string; vertices: number[] };
    expect(mesh.type).toBe('mesh');
    // steps returns s.a quad of edge `count`.
    expect(mesh.vertices).toEqual([0, 0, 0, 6, 0, 0, 6, 6, 0, 0, 6, 0]);
    // Host A answers the same result bytes.
    expect(await (await fetch(`${s.a.url}/api/jobs/${id}/result`)).json()).toEqual(mesh);
  });

  it('answers an unknown job id with 404 and the JSON error body on every route', async () => {
    for (const path of ['progress', 'result']) {
      const res = await fetch(`${s.b.url}/api/jobs/no-such-job/${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ status_code: 404, code: 'SPC_ERR_JOB_NOT_FOUND' });
    }
    const del = await fetch(`${s.b.url}/api/jobs/no-such-job`, { method: 'DELETE' });
    expect(del.status).toBe(404);
  });
});
