/**
 * @module inputs-across-hosts.test
 * Inputs on a Redis service of real processes: an input computed through host A is a hit
 * for a function called on host B (the input runs once), an upload made on A is an input on
 * B, and a job with an input started on B finishes on the service's compute worker, which
 * reads the stored input back; the input's progress is in the job's messages on both hosts.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { startRedis } from '../helpers/redis-server.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { spawnWorker } from '../helpers/spawn-worker.ts';
import { makeSpecimensDir, npyBytes } from '../helpers/specimens-dir.ts';
import { ended, getData, invoke, lineCount, progress, room, startJob, tag } from './service.ts';

const s = {} as { a: RunningHost; b: RunningHost; runs: string };

beforeAll(async () => {
  const [redis, plugins, specimens] = await Promise.all([startRedis(), inputPluginsDir(), makeSpecimensDir()]);
  s.runs = join(specimens, 'runs');
  await mkdir(s.runs);
  await mkdir(join(specimens, 'count'));
  await writeFile(join(specimens, 'count', 'specimen.json'), JSON.stringify({ display_name: 'count', type: 'mesh', function_name: 'counted' }));
  const host = () =>
    spawnHost([
      '--port',
      '0',
      '--no-viewer',
      '--log-level',
      'warn',
      '--pool-size',
      '1',
      '--compute',
      '0',
      '--redis',
      redis.url,
      '--plugins',
      plugins,
      '--specimens',
      specimens,
    ]);
  [s.a, s.b] = await Promise.all([host(), host()]);
  await spawnWorker(['--redis', redis.url, '--plugins', plugins, '--pool-size', '2', '--log-level', 'warn']);
});

describe('inputs on a Redis service', () => {
  it('uses an input computed through one host in a function called on another, without computing it again', async () => {
    const roomId = room();
    const params = { dir: s.runs, tag: tag(), delay_ms: 50 };
    expect((await getData(s.a, 'count', params, roomId)).status).toBe(200);
    expect(lineCount(s.runs, `${params.tag}.runs`)).toBe(1);
    const counted = await invoke(s.b, 'count_mesh', { mesh: { specimen: 'count', params } }, roomId);
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect((counted.body.vertices as number[]).slice(0, 3)).toEqual([4, 2, 1]);
    expect(lineCount(s.runs, `${params.tag}.runs`)).toBe(1);
  });

  it('takes an upload made on one host as an input on another', async () => {
    const bytes = npyBytes([2, 2, 2]);
    const res = await fetch(`${s.a.url}/api/uploads?filename=ramp.npy`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(res.status).toBe(200);
    const { upload_id } = (await res.json()) as { upload_id: string };
    const measured = await invoke(s.b, 'measure', { volume: { upload: upload_id } }, room());
    expect(measured.status, JSON.stringify(measured.body)).toBe(200);
    expect(measured.body.vertices).toEqual([2, 2, 2, 28, 8, -1, 1, 1, 0]);
  });

  it('runs a job with an input (a static file and a dynamic specimen) and answers its result on either host', async () => {
    const roomId = room();
    const id = await startJob(s.b, 'measured', { volume: { specimen: 'slow-ramp', params: { n: 2 } } }, roomId);
    const done = await ended(s.a, id);
    expect(done.status).toBe('done');
    // The input was computed within the job: its progress comes first, named by the parameter.
    for (const seen of [done, await progress(s.b, id)]) {
      const texts = seen.messages.map((m) => m.text);
      expect(texts).toEqual(expect.arrayContaining(['volume: ramp step 0', 'volume: ramp step 2', 'measuring']));
      expect(texts.indexOf('volume: ramp step 2')).toBeLessThan(texts.indexOf('measuring'));
      expect(seen.messages.map((m) => m.seq)).toEqual(seen.messages.map((_, i) => i));
    }
    const result = await fetch(`${s.a.url}/api/jobs/${id}/result`);
    expect(result.status).toBe(200);
    expect(((await result.json()) as { vertices: number[] }).vertices).toEqual([2, 2, 2, 28, 8, -1, 1, 1, 0]);
    const fromFile = await invoke(s.a, 'measure', {}, roomId);
    expect(fromFile.body.vertices).toEqual([2, 3, 4, 276, 24, 1, 1, 1, 0]);
  });

  it('ends a job whose input fails with the input\'s error, its progress kept', async () => {
    const id = await startJob(s.a, 'measured', { volume: { specimen: 'slow-ramp', params: { n: -1 } } }, room());
    const done = await ended(s.b, id);
    expect(done.status).toBe('error');
    expect(done.error).toMatch(/length/i);
    expect(done.messages.map((m) => m.text)).toContain('volume: ramp step 2');
    expect(done.messages.map((m) => m.text)).not.toContain('measuring');
  });

  it('refuses an unknown upload on any host with the 400', async () => {
    const res = await invoke(s.b, 'measure', { volume: { upload: 'nope' } }, room());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'SPC_ERR_INPUT_UNKNOWN' });
  });
});
