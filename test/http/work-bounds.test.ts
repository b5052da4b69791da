/**
 * Every queue has a bound and every request an answer: room pictures and job cancellations past
 * their bounds are refused at once with 503 and `Retry-After`, every other request is answered,
 * and the bound frees as the work ends.
 */
import { describe, expect, it } from 'vitest';
import { MAX_CANCELS } from '../../core/http/jobs/routes-jobs.ts';
import { MAX_PICTURES } from '../../core/http/rooms/routes-room-image.ts';
import { WorkGate } from '../../core/memory/work-gate.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';

describe('work bounds', () => {
  it('a gate refuses past its bound with 503 and Retry-After, and takes work again once some ends', async () => {
    const gate = new WorkGate('tests', 2);
    const ends: (() => void)[] = [];
    const running = [0, 1].map(() => gate.run(() => new Promise<void>((resolve) => ends.push(resolve))));
    await expect(gate.run(async () => 1)).rejects.toMatchObject({ statusCode: 503, code: 'SPC_ERR_OVERLOADED', headers: { 'retry-after': '2' } });
    ends[0]!();
    await running[0];
    expect(await gate.run(async () => 'taken')).toBe('taken');
    ends[1]!();
    await Promise.all(running);
    expect(gate.active).toBe(0);
  });

  it('answers every room picture asked at once: drawn, or 503 with Retry-After past the bound', async () => {
    const host = await createTestApp();
    const url = await host.listen({ host: '127.0.0.1', port: 0 });
    const r = room();
    const entry = await fetch(`${url}/api/rooms/${r}/entry`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function: 'ramp', params: { n: 12 } }),
    });
    expect(entry.status).toBe(200);
    const answers = await Promise.all(Array.from({ length: MAX_PICTURES + 24 }, () => fetch(`${url}/api/rooms/${r}/image?w=64&h=64`)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.filter((s) => s === 503).length).toBeGreaterThan(0);
    for (const answer of answers.filter((a) => a.status === 503)) expect(answer.headers.get('retry-after')).toBe('2');
    expect((await fetch(`${url}/api/rooms/${r}/image?w=64&h=64`)).status).toBe(200);
  });

  it('refuses job cancellations past their bound with 503 and Retry-After', async () => {
    const host = await createTestApp();
    const answers = await Promise.all(Array.from({ length: MAX_CANCELS + 20 }, (_, i) => host.inject({ method: 'DELETE', url: `/api/jobs/nope-${i}` })));
    const refused = answers.filter((a) => a.statusCode === 503);
    expect(answers.filter((a) => a.statusCode === 404)).toHaveLength(MAX_CANCELS);
    expect(refused).toHaveLength(20);
    expect(refused[0]!.headers['retry-after']).toBe('2');
  });
});
