/**
 * Remote specimens outlive the host they were published on: on a Redis service, one published
 * on host A is listed and read (in place, the remote's own values) on host B, and one removed
 * on B is gone on A; on a lone host with a data folder, one published is there after a restart
 * and after kill -9. Real processes, a real redis-server on a free port, a loopback remote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';
import { startService, type Service } from '../scale/service.ts';

let remote: RemoteServer;
const shape = [4, 8, 6];
const data = samplesOf('uint16', 4 * 8 * 6, 11);
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 4, 4], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape, data }] }, [1, 2, 2]);
});
afterAll(() => remote?.close());

const remoteArgs = () => ['--remote', `lab=${remote.url}`];

async function publish(host: RunningHost, id: string): Promise<void> {
  const res = await fetch(`${host.url}/api/specimens/${id}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ remote: 'lab/cells.ome.zarr', display_name: 'Cells' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
}

async function listed(host: RunningHost): Promise<string[]> {
  const body = (await (await fetch(`${host.url}/api/specimens`)).json()) as { id: string }[] | { specimens: { id: string }[] };
  return (Array.isArray(body) ? body : body.specimens).map((s) => s.id);
}

/** The specimen's values as the host delivers them (`.npy`, version 1 header). */
async function values(host: RunningHost, id: string): Promise<number[]> {
  const res = await fetch(`${host.url}/api/specimens/${id}/data?format=npy`);
  expect(res.status, res.status === 200 ? '' : await res.text()).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const headerLength = bytes[8]! | (bytes[9]! << 8);
  const body = bytes.slice(10 + headerLength);
  return Array.from(new Uint16Array(body.buffer, body.byteOffset, body.byteLength / 2));
}

describe('remote specimens on a Redis service', () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  });

  it('published on one host, listed and read on another; removed there, gone on the first', async () => {
    const [a, b] = await Promise.all([service.host({ compute: 1, args: remoteArgs() }), service.host({ compute: 1, args: remoteArgs() })]);
    await publish(a, 'shared-cells');
    expect(await listed(b)).toContain('shared-cells');
    remote.reset();
    expect(await values(b, 'shared-cells')).toEqual(Array.from(data));
    // B read the image itself, in place.
    expect(remote.sent.requests).toBeGreaterThan(0);

    const removed = await fetch(`${b.url}/api/specimens/shared-cells`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    await waitFor(async () => !(await listed(a)).includes('shared-cells') || undefined, 'the specimen gone on host A');
    expect((await fetch(`${a.url}/api/specimens/shared-cells/data?format=npy`)).status).toBe(404);
  });
});

describe('remote specimens on a host with a data folder', () => {
  it('are there after a restart and after kill -9', async () => {
    const plugins = await fixturePluginsDir();
    const args = ['--port', '0', '--no-viewer', '--log-level', 'warn', '--pool-size', '1', '--plugins', plugins, ...remoteArgs()];
    const first = await spawnHost(args);
    await publish(first, 'kept-cells');
    expect(await first.stop()).toBe(0);

    const again = await spawnHost([...args, '--data-dir', first.dataDir]);
    expect(await listed(again)).toContain('kept-cells');
    expect(await values(again, 'kept-cells')).toEqual(Array.from(data));
    await publish(again, 'killed-cells');
    await again.stop('SIGKILL');

    const last = await spawnHost([...args, '--data-dir', first.dataDir]);
    const ids = await listed(last);
    expect(ids).toContain('kept-cells');
    expect(ids).toContain('killed-cells');
    expect(await values(last, 'killed-cells')).toEqual(Array.from(data));
    await last.stop();
  });
});
