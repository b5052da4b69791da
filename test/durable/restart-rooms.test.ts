/**
 * @module restart-rooms.test
 * A room as a person left it is there after the host is killed and started again: its entry
 * (the scene's active layer), its view, its marks and its snapshot, which still restores and
 * whose pinned bytes are still served by blob id; an upload is still an input.
 */
import { describe, expect, it } from 'vitest';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';

const ARGS = ['--pool-size', '1', '--no-viewer', '--log-level', 'warn'];
const jsonBody = (method: string, body: unknown) => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a room after kill -9 and a restart', () => {
  it('keeps its entry, view, marks and snapshot, and the snapshot restores with its bytes', async () => {
    const dir = tempDataDir();
    let host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    const base = () => `${host.url}/api/rooms/lab`;
    expect((await fetch(`${base()}/entry`, jsonBody('PUT', { function: 'ramp', params: { n: 5 } }))).status).toBe(200);
    expect((await fetch(`${base()}/view`, jsonBody('PUT', { colormap: 'bone' }))).status).toBe(200);
    expect((await fetch(`${base()}/annotations`, jsonBody('POST', { kind: 'point', points: [[1, 2, 3]], label: 'here' }))).status).toBe(201);
    const taken = await fetch(`${base()}/snapshots`, { method: 'POST' });
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as { id: string };
    const document = await (await fetch(`${host.url}/api/snapshots/${id}`)).text();
    const blobId = (JSON.parse(document) as { scene: { layers: { result?: { blob_id?: string } }[] } }).scene.layers[0]?.result?.blob_id;
    expect(blobId).toBeTruthy();
    const bytes = Buffer.from(await (await fetch(`${host.url}/api/blobs/${blobId}`)).arrayBuffer());

    await host.stop('SIGKILL');
    host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    expect(await (await fetch(`${base()}/entry`)).json()).toMatchObject({ function_name: 'ramp', params: { n: 5 } });
    expect(await (await fetch(`${base()}/view`)).json()).toMatchObject({ colormap: 'bone' });
    expect(await (await fetch(`${base()}/annotations`)).json()).toMatchObject({ version: 1, annotations: [{ id: '1', label: 'here' }] });
    const kept = await fetch(`${host.url}/api/snapshots/${id}`);
    expect(kept.status).toBe(200);
    expect(await kept.text()).toBe(document);
    // The pinned bytes, held by no computation since the restart, come from the data folder.
    expect(Buffer.from(await (await fetch(`${host.url}/api/blobs/${blobId}`)).arrayBuffer()).equals(bytes)).toBe(true);
    const restored = await fetch(`${host.url}/api/rooms/other/scene`, jsonBody('PUT', { snapshot: id }));
    expect(restored.status).toBe(200);
    expect(((await restored.json()) as { layers: unknown[] }).layers).toHaveLength(1);
    await host.stop();
  });

  it('shows its layers after a restart without computing them again (their results kept on disk)', async () => {
    const dir = tempDataDir();
    let host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    const scene = () => `${host.url}/api/rooms/kept/scene`;
    // The first layer is the room's entry; the second is a layer only, computed by the scene's runs.
    for (const [id, n] of [['entry', 3], ['ramp', 7]] as const) {
      const layer = { id, source: { function: 'ramp', params: { n } } };
      expect((await fetch(`${host.url}/api/rooms/kept/layers`, jsonBody('POST', layer))).status).toBe(201);
    }
    const blobId = await waitFor(async () => {
      const layers = ((await (await fetch(scene())).json()) as { layers: { id: string; result?: { blob_id?: string } }[] }).layers;
      return layers.find((l) => l.id === 'ramp')?.result?.blob_id;
    }, 'the layer result');
    const bytes = Buffer.from(await (await fetch(`${host.url}/api/blobs/${blobId}`)).arrayBuffer());
    await host.stop('SIGKILL');

    // No snapshot pins it: the bytes come from the kept results of the data folder.
    host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    const layers = ((await (await fetch(scene())).json()) as { layers: { id: string; result?: { blob_id?: string } }[] }).layers;
    expect(layers.find((l) => l.id === 'ramp')?.result?.blob_id).toBe(blobId);
    const after = await fetch(`${host.url}/api/blobs/${blobId}`);
    expect(after.status).toBe(200);
    expect(Buffer.from(await after.arrayBuffer()).equals(bytes)).toBe(true);
    // Asked again, from the copy the first answer read, and by the layer's own data URL as a page
    // asks first: the same result, and nothing was computed for any of it.
    expect(Buffer.from(await (await fetch(`${host.url}/api/blobs/${blobId}`)).arrayBuffer()).equals(bytes)).toBe(true);
    for (const layer of layers) {
      const own = await fetch(`${host.url}/api/rooms/kept/layers/${layer.id}/data`);
      expect([own.status, own.headers.get('x-result-id')]).toEqual([200, layer.result?.blob_id]);
    }
    // The room's entry asked for as a page asks for its own subject: the kept result of its slot.
    const entry = await fetch(`${host.url}/api/processing/invoke`, jsonBody('POST', { function_name: 'ramp', kwargs: { n: 3 }, room_id: 'kept' }));
    expect([entry.status, entry.headers.get('x-result-id')]).toEqual([200, layers.find((l) => l.id === 'entry')?.result?.blob_id]);
    expect(await (await fetch(`${host.url}/metrics`)).text()).toMatch(/^vitrine_cache_lookups\{outcome="miss"\} 0$/m);
    await host.stop();

    // The control: a host that keeps no results on disk has nothing to answer with.
    host = await spawnFixtureHost(['--data-dir', dir, '--disk-cache-max-bytes', '0', ...ARGS]);
    expect((await fetch(`${host.url}/api/blobs/${blobId}`)).status).toBe(404);
    await host.stop();
  });
});
