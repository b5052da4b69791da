/**
 * A layer made from a notebook's array says what published it: `room.add(arr, source=...)`
 * gives the layer's result a provenance naming the specimen, its file's SHA-256, the client
 * (`vitrine-python/<version>`), the signed-in user, the time and the source the notebook named;
 * the room's provenance and a snapshot carry it. Verifying the snapshot checks that layer by
 * its bytes (`same`), and once the array is gone from the host, verify still answers for every
 * layer: the array's layer and the function layer whose input names it are `unavailable`,
 * each naming what is missing, rather than the whole snapshot refused. Before that, the
 * snapshot's session file is taken in by a second host (another data folder, the same plugins):
 * it publishes the array there under the same id, so every layer of the restored room answers
 * its data, the function layer computes from it, and verify says `same` for every layer; a
 * host that publishes other bytes under that id keeps its own, says so, and verify says `differs`.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { PublishedProvenance, RoomProvenance } from '../../core/wire/provenance-types.ts';
import type { SnapshotCreated } from '../../core/wire/scene-types.ts';
import type { SnapshotDocument } from '../../core/wire/snapshot-types.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { someExamplePlugins } from '../helpers/example-plugins.ts';
import { runPython } from '../helpers/python-publish.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room } from '../helpers/room.ts';
import { killAllHosts, spawnHost } from '../helpers/spawn-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';

afterAll(() => killAllHosts());

const BUILD = (r: string, token: string) => `
import json, os, numpy as np
from vitrine import Client, VolumeResult, __version__
c = Client(os.environ["VITRINE_URL"], token=${JSON.stringify(token)})
room = c.room(${JSON.stringify(r)})
z, y, x = np.mgrid[0:20, 0:20, 0:20]
blob = (((z - 12) ** 2 + (y - 8) ** 2 + (x - 11) ** 2 < 16) * 200).astype(np.uint8)
room.add(VolumeResult.from_numpy(blob, spacing=(1, 1, 1)), id="scan", source="segment.py")
room.add(function="isosurface", params={"volume": {"specimen": ${JSON.stringify(`${r}.scan`)}}, "level": 0.5}, id="surface")
try:
    room.add("ct-head-phantom", source="segment.py")
    refused = None
except TypeError as error:
    refused = str(error)
print(json.dumps({"snapshot": room.snapshot()["id"], "version": __version__, "refused": refused}))
`;

/** The snapshot's session file from `from` taken in by `into` and restored into room `r` there; the import's answer. */
async function carried(from: string, into: string, id: string, r: string): Promise<SnapshotCreated> {
  const file = new Uint8Array(await (await fetch(`${from}/api/snapshots/${id}?format=bundle`)).arrayBuffer());
  const imported = await fetch(`${into}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: file });
  expect(imported.status).toBe(201);
  const restore = { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ snapshot: id }) };
  const restored = await fetch(`${into}/api/rooms/${r}/scene`, restore);
  expect(restored.status).toBe(200);
  return (await imported.json()) as SnapshotCreated;
}

interface Verified {
  layers: { id: string; status: string; detail?: string; code?: string }[];
}

describe('provenance of a published array', () => {
  it('names the client, the user, the time and the source; verify checks it by its bytes, per layer', { timeout: 180_000 }, async () => {
    const dir = tempDataDir();
    const added = await promisify(execFile)(process.execPath, [CLI, 'users', 'add', 'ada', '--data-dir', dir], { cwd: REPO });
    const token = /[A-Za-z0-9_-]{32,}/.exec(added.stdout)![0];
    // The one example plugin the room's function layer names (the Python example's warm
    // processes would start beside a host on all of them).
    const plugins = someExamplePlugins('isosurfaces');
    const host = await spawnHost(['--port', '0', '--no-viewer', '--log-level', 'warn', '--specimens', 'none', '--plugins', plugins, '--data-dir', dir]);
    const r = room('made-by');
    const before = Date.now();
    const built = await runPython<{ snapshot: string; version: string; refused: string | null }>(BUILD(r, token), host.url);
    expect(built.refused).toMatch(/source= names what made an array/);

    const provenance = (await (await fetch(`${host.url}/api/rooms/${r}/provenance`)).json()) as RoomProvenance;
    const scan = provenance.layers.find((l) => l.id === 'scan')!.provenance as PublishedProvenance;
    expect(scan.published).toMatchObject({ specimen: `${r}.scan`, user: 'ada', client: `vitrine-python/${built.version}`, source: 'segment.py' });
    expect(scan.published.sha256).toMatch(/^[0-9a-f]{64}$/);
    const at = Date.parse(scan.published.published_at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(provenance.layers.find((l) => l.id === 'surface')!.provenance).toMatchObject({ function: 'isosurface', plugin: 'isosurfaces' });

    // The snapshot carries it, and verifying checks the array's layer by its bytes.
    const document = (await (await fetch(`${host.url}/api/snapshots/${built.snapshot}`)).json()) as SnapshotDocument;
    expect(document.scene.layers.find((l) => l.id === 'scan')!.result!.provenance).toEqual(scan);
    const verify = async () => {
      const answer = await fetch(`${host.url}/api/snapshots/${built.snapshot}/verify`, { method: 'POST' });
      expect(answer.status).toBe(200);
      return ((await answer.json()) as Verified).layers;
    };
    expect((await verify()).map((l) => [l.id, l.status])).toEqual([
      ['scan', 'same'],
      ['surface', 'same'],
    ]);

    // Another host (its own data folder, the same plugins) takes the session file in: the array comes along.
    const otherArgs = ['--port', '0', '--no-viewer', '--log-level', 'warn', '--specimens', 'none', '--plugins', plugins, '--data-dir', tempDataDir()];
    const other = await spawnHost(otherArgs);
    expect((await fetch(`${other.url}/api/specimens/${r}.scan`)).status).toBe(404);
    expect(await carried(host.url, other.url, built.snapshot, r)).toEqual({ id: built.snapshot, url: `/?snapshot=${built.snapshot}` });
    for (const layer of ["scan", "surface"]) expect((await fetch(`${other.url}/api/rooms/${r}/layers/${layer}/data`)).status, layer).toBe(200);
    const there = await fetch(`${other.url}/api/specimens/${r}.scan`);
    expect(there.status).toBe(200);
    expect(await there.json()).toMatchObject({ id: `${r}.scan` });
    const verifyOn = async (base: string) =>
      ((await (await fetch(`${base}/api/snapshots/${built.snapshot}/verify`, { method: 'POST' })).json()) as Verified).layers;
    expect((await verifyOn(other.url)).map((l) => [l.id, l.status])).toEqual([
      ['scan', 'same'],
      ['surface', 'same'],
    ]);
    // Other bytes under that id there: the host keeps its own and says so; verify tells them apart.
    const otherBytes = { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([2, 2, 2])) };
    const put = await fetch(`${other.url}/api/specimens/${r}.scan?filename=scan.npy&room=${r}`, otherBytes);
    expect(put.status).toBe(200);
    const again = await carried(host.url, other.url, built.snapshot, r);
    expect(again.kept_own).toEqual([{ specimen: `${r}.scan`, detail: expect.stringContaining('other bytes') }]);
    expect((await verifyOn(other.url)).find((l) => l.id === 'scan')!.status).toBe('differs');
    await other.stop();

    // The array gone from the host: every layer still answers, naming what is missing.
    expect((await fetch(`${host.url}/api/specimens/${r}.scan`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
    const gone = await verify();
    expect(gone.map((l) => [l.id, l.status])).toEqual([
      ['scan', 'unavailable'],
      ['surface', 'unavailable'],
    ]);
    for (const layer of gone) expect(layer.detail, layer.id).toContain(`${r}.scan`);
    await host.stop();
  });
});
