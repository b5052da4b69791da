/**
 * Snapshots and the Neuroglancer state of a room, over real HTTP on one host: a snapshot taken,
 * the room changed and every cached result dropped, and the snapshot still answers with the
 * same blob ids, each blob still served byte for byte; restoring it gives the old scene and
 * view back. The same room taken twice unchanged is the same snapshot. The Neuroglancer state
 * points at the host's OME-Zarr stores by absolute URL, with each layer's window, opacity,
 * visibility and segment colours.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { labelColor } from '../../core/wire/label-colors.ts';
import type { RoomScene, SnapshotCreated } from '../../core/wire/scene-types.ts';
import type { SnapshotDocument } from '../../core/wire/snapshot-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const server = fileTestApp();

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const scene = async (r: string): Promise<RoomScene> => (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
/** The scene once every layer has its result; past the wait, the error says which had none and what the room heard. */
async function computed(r: string): Promise<RoomScene> {
  let last: RoomScene | null = null;
  try {
    return await waitFor(async () => {
      last = await scene(r);
      return last.layers.every((l) => l.result) ? last : undefined;
    }, `every layer of ${r} computed`);
  } catch (error) {
    const missing = last ? (last as RoomScene).layers.filter((l) => !l.result).map((l) => l.id) : [];
    throw new Error(`${(error as Error).message}; without a result: ${missing.join(', ')}; scene ${JSON.stringify(last)}`);
  }
}

/**
 * A snapshot restored into another room, which shows the same bytes (its entry computed again) and then drops
 * them: the snapshot and its blob still answer (the room letting its copy go must not hide the
 * one the snapshot pinned).
 */
async function keptAfterRestore(base: string): Promise<void> {
  const post = (path: string, method: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const done = (r: string) =>
    waitFor(async () => {
      const s = (await (await fetch(`${base}/api/rooms/${r}/scene`)).json()) as RoomScene;
      return s.layers.every((l) => l.result) ? s : undefined;
    }, `every layer of ${r} computed`);
  const [from, into] = [room('snap'), room('snap')];
  await post(`/api/rooms/${from}/scene`, 'PUT', { layers: [{ id: 'scan', source: { function: 'ramp', params: { n: 5, scale: 7 } } }] });
  await done(from);
  const { id } = (await (await post(`/api/rooms/${from}/snapshots`, 'POST')).json()) as SnapshotCreated;
  const blob = ((await (await fetch(`${base}/api/snapshots/${id}`)).json()) as SnapshotDocument).scene.layers[0]!.result!.blob_id!;
  const bytes = Buffer.from(await (await fetch(`${base}/api/blobs/${blob}`)).arrayBuffer());
  expect((await post(`/api/rooms/${into}/scene`, 'PUT', { snapshot: id })).status).toBe(200);
  await done(into);
  expect((await post(`/api/rooms/${into}/scene`, 'PUT', { layers: [] })).status).toBe(200);
  expect((await fetch(`${base}/api/snapshots/${id}`)).status).toBe(200);
  const kept = await fetch(`${base}/api/blobs/${blob}`);
  expect(kept.status).toBe(200);
  expect(Buffer.from(await kept.arrayBuffer())).toEqual(bytes);
}

describe('snapshots', () => {
  it('keep a room as it was: the same blob ids and bytes after the room changed and its results were dropped, and restore it', async () => {
    const r = room('snap');
    await send('PUT', `/api/rooms/${r}/scene`, {
      layers: [
        { id: 'scan', source: { function: 'ramp', params: { n: 6 } }, window: [0, 100], colormap: 'magma' },
        { id: 'mask', source: { function: 'ramp', params: { n: 6, scale: 2 } }, kind: 'labels', opacity: 0.4 },
        { id: 'mesh', source: { function: 'square', params: { size: 2 } } },
        { id: 'tri', source: { specimen: 'tri' } },
      ],
      active: 'scan',
    });
    await send('PUT', `/api/rooms/${r}/view`, { camera: { position: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0] } });
    const before = await computed(r);

    const taken = await send('POST', `/api/rooms/${r}/snapshots`);
    expect(taken.status).toBe(201);
    const created = (await taken.json()) as SnapshotCreated;
    expect(created.id).toMatch(/^[0-9a-f]{64}$/);
    expect(created.url).toBe(`/?snapshot=${created.id}`);
    expect(((await (await send('POST', `/api/rooms/${r}/snapshots`)).json()) as SnapshotCreated).id).toBe(created.id);

    const first = await fetch(`${server.url}/api/snapshots/${created.id}`);
    expect(first.headers.get('cache-control')).toMatch(/immutable/);
    // The body is the very bytes the id hashes; the id and the time taken are headers.
    const body = Buffer.from(await first.arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(created.id);
    const snapshot = JSON.parse(body.toString('utf8')) as SnapshotDocument;
    expect(createHash('sha256').update(JSON.stringify(snapshot)).digest('hex')).toBe(created.id);
    expect(Object.keys(snapshot)).toEqual(['annotations', 'scene', 'view']);
    expect(first.headers.get('etag')).toBe(`"${created.id}"`);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const takenAt = Number(first.headers.get('x-snapshot-created'));
    expect(Math.abs(takenAt - Date.now())).toBeLessThan(60_000);
    expect(first.headers.get('last-modified')).toBe(new Date(takenAt).toUTCString());
    expect(snapshot.scene.layers.map((l) => l.id)).toEqual(['scan', 'mask', 'mesh', 'tri']);
    expect(snapshot.scene.active).toBe('scan');
    expect(snapshot.view).toMatchObject({ camera: { position: [0, 0, 5] } });
    expect(snapshot.annotations).toEqual([]);
    for (const layer of snapshot.scene.layers) expect(layer.result!.data_url).toBe(`/api/blobs/${layer.result!.blob_id}`);
    const bytes = await Promise.all(
      snapshot.scene.layers.map(async (l) => Buffer.from(await (await fetch(`${server.url}/api/blobs/${l.result!.blob_id}`)).arrayBuffer())),
    );

    // The room moves on and every cached result is dropped.
    await send('PUT', `/api/rooms/${r}/scene`, { layers: [{ id: 'other', source: { function: 'square', params: { size: 5 } } }] });
    await send('PUT', `/api/rooms/${r}/view`, { camera: null });
    expect((await send('POST', '/api/processing/cache/clear')).status).toBe(200);

    const again = await fetch(`${server.url}/api/snapshots/${created.id}`);
    expect(Buffer.from(await again.clone().arrayBuffer())).toEqual(body);
    expect(again.headers.get('x-snapshot-created')).toBe(String(takenAt));
    const later = (await again.json()) as SnapshotDocument;
    expect(later.scene).toEqual(snapshot.scene);
    for (const [i, layer] of later.scene.layers.entries()) {
      const blob = await fetch(`${server.url}/api/blobs/${layer.result!.blob_id}`);
      expect(blob.status, layer.id).toBe(200);
      expect(Buffer.from(await blob.arrayBuffer())).toEqual(bytes[i]);
    }

    const restored = await send('PUT', `/api/rooms/${r}/scene`, { snapshot: created.id });
    expect(restored.status).toBe(200);
    const back = await computed(r);
    // Restored layers are pinned to the plugin version that made them (a computed layer's source names it).
    const strip = (s: RoomScene) =>
      s.layers.map(({ result, source: { version: _version, ...source }, ...layer }) => ({ ...layer, source, result_id: result?.result_id }));
    expect(strip(back)).toEqual(strip(before));
    expect(back.layers.filter((layer) => layer.source.function).every((layer) => typeof layer.source.version === 'string')).toBe(true);
    expect(back.active).toBe('scan');
    expect(await (await fetch(`${server.url}/api/rooms/${r}/view`)).json()).toMatchObject({ camera: { position: [0, 0, 5] } });

    expect((await fetch(`${server.url}/api/snapshots/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await send('PUT', `/api/rooms/${r}/scene`, { snapshot: '0'.repeat(64) })).status).toBe(404);
  });
  it('keep their bytes after being restored into another room that then lets them go', () => keptAfterRestore(server.url));
});

describe('snapshots on a Redis service', () => {
  const redis = fileRedis();
  let host: FastifyInstance;
  let url = '';
  beforeAll(async () => {
    const dirs = { pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir() };
    host = await createApp({ ...dirs, logLevel: false, poolSize: 2, viewer: false, redis: redis.server.url });
    url = await host.listen({ host: '127.0.0.1', port: 0 });
  }, 60_000);
  afterAll(() => host?.close());

  it('keep their bytes after being restored into another room that then lets them go', () => keptAfterRestore(url));
});

describe('the Neuroglancer state', () => {
  it('points image and labels layers at the host’s OME-Zarr stores by absolute URL, with their look', async () => {
    const r = room('ng');
    await send('PUT', `/api/rooms/${r}/scene`, {
      layers: [
        { id: 'scan', source: { function: 'ramp', params: { n: 4 } }, window: [1, 30], opacity: 0.8, colormap: 'viridis', gamma: 0.5 },
        {
          id: 'mask',
          source: { function: 'ramp', params: { n: 4, scale: 3 } },
          kind: 'labels',
          opacity: 0.4,
          visible: false,
          labels: { colors: { '3': '#ff8800' }, selected: [3], show: 'selected' },
        },
        { id: 'mesh', source: { function: 'square' }, opacity: 0.5 },
        { id: 'dots', source: { function: 'cloud', params: { count: 4 } } },
      ],
    });
    const s = await computed(r);
    const state = (await (await fetch(`${server.url}/api/rooms/${r}/neuroglancer`)).json()) as { layers: Record<string, unknown>[]; layout: string };
    const host = new URL(server.url).host;
    expect(state.layers.map((l) => [l.type, l.name])).toEqual([['image', 'scan'], ['segmentation', 'mask'], ['mesh', 'mesh'], ['annotation', 'dots']]);
    // The mesh as a single mesh Neuroglancer reads: the layer's own data URL as VTK, which answers,
    // its numbers read in the room's units (unitless here: the ramp names none), in the page's mesh colour at its opacity.
    const { url: meshSource, transform } = state.layers[2]!.source as { url: string; transform: unknown };
    expect(meshSource).toBe(`http://${host}${s.layers[2]!.result!.data_url}?format=vtk|vtk:`);
    const unitless = { x: [1, ''], y: [1, ''], z: [1, ''] };
    expect(transform).toEqual({ inputDimensions: unitless, outputDimensions: unitless });
    expect(state.layers[2]).toMatchObject({ visible: true, shader: 'void main() {\n  emitRGBA(vec4(0.373, 0.624, 0.839, 0.500));\n}\n' });
    const vtk = await fetch(meshSource.slice(0, -'|vtk:'.length));
    expect(vtk.status).toBe(200);
    const text = await vtk.text();
    // ASCII polydata of points and triangles, the only kind Neuroglancer's VTK reader takes.
    expect(text).toMatch(/^# vtk DataFile Version 3\.0\n.*\nASCII\nDATASET POLYDATA\nPOINTS \d+ float\n/);
    expect(text).toMatch(/^POLYGONS (\d+) \d+$/m);
    expect(text).toMatch(/^3 \d+ \d+ \d+$/m);
    // The points, written into the state as point annotations.
    const dots = state.layers[3] as { source: string; annotations: { type: string; id: string; point: number[] }[] };
    expect(dots.source).toBe('local://annotations');
    const cloud = (await (await fetch(`${server.url}${s.layers[3]!.result!.data_url}`)).json()) as { points: number[] };
    expect(dots.annotations).toHaveLength(4);
    dots.annotations.forEach((mark, i) => {
      expect(mark).toMatchObject({ type: 'point', id: String(i) });
      for (let k = 0; k < 3; k++) expect(mark.point[k]).toBeCloseTo(cloud.points[i * 3 + k]!, 5);
    });
    const [scan, mask] = state.layers as [Record<string, unknown>, Record<string, unknown>];
    expect(scan).toMatchObject({
      source: `zarr3://http://${host}/api/results/${s.layers[0]!.result!.result_id}.ome.zarr/`,
      opacity: 0.8,
      visible: true,
      shaderControls: { normalized: { range: [1, 30] } },
    });
    expect(scan.shader).toMatch(/#uicontrol invlerp normalized/);
    expect(scan.shader).toMatch(/pow\(clamp\(normalized\(\), 0\.0, 1\.0\), 0\.5\)/);
    expect(mask).toMatchObject({
      source: `zarr3://http://${host}/api/results/${s.layers[1]!.result!.result_id}.ome.zarr/`,
      visible: false,
      segments: ['3'],
      segmentColors: { '3': '#ff8800' },
      selectedAlpha: 0.4,
      notSelectedAlpha: 0,
    });
    expect(state.layout).toBe('4panel');
    // The store it names answers.
    expect((await fetch(`${server.url}/api/results/${s.layers[0]!.result!.result_id}.ome.zarr/zarr.json`)).status).toBe(200);
  });

  it('gives a labels layer the page’s segment colours: its result’s own, else each id’s categorical one, each overridden by the layer’s', async () => {
    const r = room('ng');
    const blobs = { function: 'label_blobs', params: { size: 16, count: 3 } };
    await send('PUT', `/api/rooms/${r}/scene`, {
      layers: [
        { id: 'plain', source: blobs, kind: 'labels' },
        { id: 'tinted', source: blobs, kind: 'labels', labels: { colors: { '1': '#0000ff', '2': '#00ff00' } } },
      ],
    });
    await computed(r);
    const state = (await (await fetch(`${server.url}/api/rooms/${r}/neuroglancer`)).json()) as { layers: Record<string, unknown>[] };
    const byName = new Map(state.layers.map((l) => [l.name, l]));
    // label_blobs colours segment 1 itself (#ff0000); its other ids (2 and 3) take their categorical colours, as on the page.
    const page = (given: Record<string, string>) => ({ '1': '#ff0000', '2': labelColor(2), '3': labelColor(3), ...given });
    expect(byName.get('plain')).toMatchObject({ type: 'segmentation' });
    expect(byName.get('plain')!.segmentColors).toEqual(page({}));
    expect(byName.get('tinted')!.segmentColors).toEqual(page({ '1': '#0000ff', '2': '#00ff00' }));
    await send('PATCH', `/api/rooms/${r}/layers/tinted`, { labels: { colors: { '3': '#123456' } } });
    const after = (await (await fetch(`${server.url}/api/rooms/${r}/neuroglancer`)).json()) as { layers: Record<string, unknown>[] };
    expect(after.layers.find((l) => l.name === 'tinted')!.segmentColors).toEqual(page({ '3': '#123456' }));
  });
});
