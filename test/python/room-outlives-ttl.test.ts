/**
 * What a room shows lives as long as the room, whatever `--published-ttl` says: a room built
 * from a notebook (an array layer, a labels layer, a segment's surface, a mark) on a host with
 * `--published-ttl 3`, long after the arrays' time-to-live, still answers every layer's data,
 * takes a snapshot and saves a session file; a snapshot holds what it names once no room does
 * (restored after the room let go of its layers, every layer shows again). Only what nothing
 * names expires: a control specimen published after the room, named by nothing, goes, and
 * the test waits on that (never for a fixed time). On a lone host's data folder and in memory.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { runPython } from '../helpers/python-publish.ts';
import { room } from '../helpers/room.ts';
import { killAllHosts, spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

afterAll(() => killAllHosts());

/** Builds the room from numpy arrays and publishes an unnamed control specimen after it. */
const BUILD = (r: string, control: string) => `
import json, numpy as np
from vitrine import Client, VolumeResult
import os; c = Client(os.environ["VITRINE_URL"])
room = c.room(${JSON.stringify(r)})
z, y, x = np.mgrid[0:24, 0:24, 0:24]
blob = ((z - 12) ** 2 + (y - 10) ** 2 + (x - 14) ** 2 < 36)
room.add(VolumeResult.from_numpy((blob * 200 + 20).astype(np.uint8), spacing=(1, 1, 1), unit="micrometer"), id="scan")
room.add(blob.astype(np.uint8), id="cells", labels=True, opacity=0.4)
room.add_segment("cells", 1, id="surface")
room.annotate("point", [[14, 10, 12]], label="centre")
taken = room.snapshot()
c.publish(${JSON.stringify(control)}, np.zeros((4, 4, 4), dtype=np.uint8))  # named by nothing
print(json.dumps({"snapshot": taken["id"]}))
`;

/** After the time-to-live: every layer's data, a snapshot and a session file, from the notebook. */
const AFTER = (r: string, folder: string) => `
import json
from vitrine import Client
import os; c = Client(os.environ["VITRINE_URL"])
room = c.room(${JSON.stringify(r)})
codes = {l["id"]: c._http.send("GET", f"/api/rooms/${r}/layers/{l['id']}/data").status for l in room.layers}
saved = room.save(${JSON.stringify(folder)})
print(json.dumps({"codes": codes, "snapshot": room.snapshot()["id"], "saved": saved["path"]}))
`;

const status = async (host: RunningHost, p: string) => (await fetch(`${host.url}${p}`)).status;

/** Publishes a small array as `id`, named by nothing. */
const CONTROL = (id: string) => `
import json, numpy as np
from vitrine import Client
import os; print(json.dumps(Client(os.environ["VITRINE_URL"]).publish(${JSON.stringify(id)}, np.zeros((4, 4, 4), dtype=np.uint8))))
`;

describe.each([
  ['a lone host on its data folder', true],
  ['a host in memory', false],
])('a room built from a notebook, --published-ttl 3: %s', (_label, disk) => {
  it('shows every layer, snapshots and saves long after the TTL; a snapshot holds what it names', { timeout: 240_000 }, async () => {
    const data = disk ? await mkdtemp(path.join(tmpdir(), 'vitrine-ttl-data-')) : 'none';
    // No plugins: the room is made of published arrays and a segment's surface, which need none
    // (the example plugins would start warm Python processes beside each host).
    const host = await spawnHost(['--port', '0', '--no-viewer', '--log-level', 'warn', '--published-ttl', '3', '--data-dir', data, '--specimens', 'none',
      '--plugins', 'none']);
    const r = room('ttl');
    const built = await runPython<{ snapshot: string }>(BUILD(r, `${r}-control`), host.url);
    await waitFor(async () => ((await status(host, `/api/specimens/${r}-control`)) === 404 ? true : undefined), 'the unnamed control specimen to expire');

    const folder = await mkdtemp(path.join(tmpdir(), 'vitrine-ttl-session-'));
    const after = await runPython<{ codes: Record<string, number>; snapshot: string; saved: string }>(AFTER(r, folder), host.url);
    expect(after.codes).toEqual({ scan: 200, cells: 200, surface: 200 });
    expect(after.saved).toMatch(/\.vitrine$/);
    for (const id of ['scan', 'cells']) expect(await status(host, `/api/specimens/${r}.${id}/data`)).toBe(200);

    // No room names the arrays any more: the snapshot taken at first holds them.
    const putScene = (target: string, body: unknown) =>
      fetch(`${host.url}/api/rooms/${target}/scene`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await putScene(r, { layers: [] })).status).toBe(200);
    await runPython(CONTROL(`${r}-later`), host.url);
    await waitFor(async () => ((await status(host, `/api/specimens/${r}-later`)) === 404 ? true : undefined), 'a second control specimen to expire');
    const restore = await putScene(`${r}-again`, { snapshot: built.snapshot });
    expect(restore.status).toBe(200);
    const scene = (await restore.json()) as RoomScene;
    for (const layer of scene.layers) expect(await status(host, `/api/rooms/${r}-again/layers/${layer.id}/data`), layer.id).toBe(200);
    expect((await fetch(`${host.url}/api/rooms/${r}-again/snapshots`, { method: 'POST' })).status).toBe(201);
    await host.stop();
  });
});
