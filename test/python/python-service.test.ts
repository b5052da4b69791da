/**
 * Python plugin functions beyond one host: a `vitrine worker` of a Redis service runs them for
 * a front end that computes nothing, and a relay's worker serves them through the relay.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { catalogIds, registered, startHost } from '../federation/helpers/host-process.ts';
import { postJson } from '../federation/helpers/json-http.ts';
import { PYTHON, pythonPluginsDir } from '../helpers/python-plugins.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { spawnWorker } from '../helpers/spawn-worker.ts';
import { ended, getData, invoke, room, startJob, startService } from '../scale/service.ts';

afterAll(() => killAllHosts());

// The Redis service and the relay are separate, each with its own processes: the two run side by side.
describe.concurrent('Python plugins in a service', () => {
  it('run on a vitrine worker of a Redis service, results and progress seen from a front end', async () => {
    const service = await startService();
    const plugins = await pythonPluginsDir();
    const front = await service.host({ args: ['--plugins', plugins] });
    const worker = await spawnWorker(['--redis', service.redis.url, '--plugins', plugins, '--pool-size', '1', '--python', PYTHON, '--log-level', 'warn']);
    const lab = room();
    const data = await getData(front, 'py-generate-gaussian-volume', { resolution: 32 }, lab);
    expect(data.status, data.body.toString('utf8').slice(0, 300)).toBe(200);
    expect((decodeEnvelope(new Uint8Array(data.body)) as DecodedVolume).shape).toEqual([32, 32, 32]);
    const job = await startJob(front, 'py-steps', { count: 3 }, lab);
    const done = await ended(front, job);
    expect(done.status).toBe('done');
    expect(done.messages.map((m) => m.text)).toEqual(['step 1 of 3', 'step 2 of 3', 'step 3 of 3']);
    const failed = await invoke(front, 'fails', { message: 'far away' }, lab);
    expect(failed.status).toBe(500);
    expect(failed.body.detail).toBe("function 'fails' failed: ValueError: far away");
    await worker.stop('SIGTERM');
  });

  it('run on a relay’s worker and are served through the relay', async () => {
    const plugins = await pythonPluginsDir();
    const relay = await startHost(['--relay', '--plugins', 'none', '--specimens', 'none']);
    await startHost(['--join', relay.url, '--worker-id', 'lab-pc', '--plugins', plugins, '--specimens', 'none', '--python', PYTHON]);
    await registered(relay, 'lab-pc:py-triangle');
    expect(await catalogIds(relay)).toContain('lab-pc:py-ramp-volume');
    const answer = await postJson(`${relay.url}/api/processing/invoke`, { function_name: 'lab-pc:triangle', kwargs: { scale: 4 } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ type: 'mesh', vertices: [0, 0, 0, 4, 0, 0, 0, 4, 0], indices: [0, 1, 2] });
    const res = await fetch(`${relay.url}/api/specimens/lab-pc:py-ramp-volume/data?params=${encodeURIComponent('{"size":3,"dtype":"float32"}')}`);
    const volume = decodeEnvelope(new Uint8Array(await res.arrayBuffer())) as DecodedVolume;
    expect(volume.shape).toEqual([3, 3, 3]);
    expect(Array.from(volume.data as Float32Array).slice(0, 4)).toEqual([0, 1, 2, 3]);
  });
});
