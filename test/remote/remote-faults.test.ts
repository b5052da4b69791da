/**
 * A remote that fails stays its own fault: a remote answering 500, one that does not answer
 * within --remote-timeout, and one whose bytes do not decode each give 502
 * SPC_ERR_REMOTE_UNAVAILABLE naming the remote and the key, while /healthz answers at once;
 * once the remote is back the same request works, without a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { samplesOf, startRemoteServer, writeV04, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 4], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, path: 'down.ome.zarr', levels: [{ shape: [4, 8, 8], data: samplesOf('uint16', 256) }] }, [1, 2, 2]);
  await writeV05(remote.files, { ...spec, path: 'slow.ome.zarr', levels: [{ shape: [4, 8, 8], data: samplesOf('uint16', 256, 3) }] });
  await writeV04(remote.files, { ...spec, path: 'garbled.ome.zarr', levels: [{ shape: [4, 8, 8], data: samplesOf('uint16', 256, 5) }] }, '/');
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url }, remoteTimeoutSeconds: 1 }));

async function publish(id: string): Promise<void> {
  const res = await host.app.inject({ method: 'PUT', url: `/api/specimens/${id}`, payload: { remote: `lab/${id}.ome.zarr` } });
  expect(res.statusCode, res.body).toBe(201);
}

describe('a failing remote', () => {
  it('answering 500: 502 naming the remote and the key, then works again once it is back', async () => {
    await publish('down');
    remote.failing = 500;
    const res = await host.app.inject({ method: 'GET', url: '/api/specimens/down/data?format=npy' });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('SPC_ERR_REMOTE_UNAVAILABLE');
    expect(res.json().detail).toMatch(/remote 'lab' could not give 'down\.ome\.zarr\/0\/c\/0\/0\/0'.*HTTP 500/);
    remote.failing = null;
    const again = await host.app.inject({ method: 'GET', url: '/api/specimens/down/data?format=npy' });
    expect(again.statusCode).toBe(200);
  });

  it('silent past --remote-timeout: 502 saying so, while /healthz answers at once', async () => {
    await publish('slow');
    remote.failing = 'hang';
    let answered = false;
    const pending = fetch(`${host.url}/api/specimens/slow/data?format=npy`).then((res) => ((answered = true), res));
    // The host still answers its health while the read waits on the silent remote.
    const health = await fetch(`${host.url}/healthz`);
    expect(health.status).toBe(200);
    expect(answered).toBe(false);
    const res = await pending;
    expect(res.status).toBe(502);
    const body = await res.json();
    expect(body.code).toBe('SPC_ERR_REMOTE_UNAVAILABLE');
    expect(body.detail).toMatch(/'lab'.*slow\.ome\.zarr.*within 1 s \(--remote-timeout\)/);
    remote.failing = null;
    expect((await fetch(`${host.url}/api/specimens/slow/data?format=npy`)).status).toBe(200);
  });

  it('sending bytes that do not decode: 502 naming the level', async () => {
    await publish('garbled');
    remote.files.set('garbled.ome.zarr/0/0/0/0', new TextEncoder().encode('not zstd at all'));
    const res = await host.app.inject({ method: 'GET', url: '/api/specimens/garbled/data?format=npy' });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('SPC_ERR_REMOTE_UNAVAILABLE');
    expect(res.json().detail).toMatch(/remote 'lab' could not give 'garbled\.ome\.zarr\/0'.*does not decode/);
  });
});
