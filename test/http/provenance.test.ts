/**
 * Provenance over HTTP on a real host: catalog entries and functions name their plugin and
 * version; `/data`, `/invoke` and a job's `/result` answer `Vitrine-Provenance`; a layer's
 * result, a snapshot and the room's provenance list say what made each result; so do a room's
 * picture (its PNG text, read back chunk by chunk) and its Neuroglancer state.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { readPngText } from '../../core/formats/png/png-text.ts';
import type { Provenance } from '../../core/wire/provenance-types.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let url: string;
let bundle: string;
let hostVersion: string;

const get = (p: string) => fetch(`${url}${p}`);
const post = (p: string, body: unknown) => fetch(`${url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const DEFAULTS = { radius: 1.5, mode: 'fast', segments: 32 };

beforeAll(async () => {
  const built = await shapesVersion('1.0.0');
  bundle = createHash('sha256').update(await readFile(path.join(built, 'manifest.json'))).digest('hex');
  hostVersion = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const plugins = await pluginsFolder();
  await dropIn(built, plugins);
  app = await createApp({ pluginsDir: plugins, specimensDir: null, logLevel: false, poolSize: 2, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
}, 240_000);
afterAll(() => app?.close());

describe('provenance', { timeout: 120_000 }, () => {
  it('catalog entries and function listings name the plugin and its version', async () => {
    const catalog = (await (await get('/api/specimens')).json()) as { id: string; plugin?: string; version?: string; signature?: string }[];
    expect(catalog.find((s) => s.id === 'ring')).toMatchObject({ plugin: 'shapes', version: '1.0.0', signature: 'unsigned' });
    const functions = (await (await get('/api/processing/functions')).json()) as { name: string }[];
    expect(functions.find((f) => f.name === 'ring')).toMatchObject({ plugin: 'shapes', version: '1.0.0' });
  });

  it('/data, /invoke and a job result answer the Vitrine-Provenance header', async () => {
    const expected = `shapes@1.0.0; bundle=${bundle.slice(0, 12)}`;
    const data = await get('/api/specimens/ring/data?params={"radius":2}');
    expect(data.status).toBe(200);
    expect(data.headers.get('vitrine-provenance')).toBe(expected);
    const invoke = await post('/api/processing/invoke', { function_name: 'ring', params: { segments: 8 } });
    expect(invoke.status).toBe(200);
    expect(invoke.headers.get('vitrine-provenance')).toBe(expected);
    const started = (await (await post('/api/processing/functions/ring/start', { params: { segments: 9 } })).json()) as { job_id: string };
    const result = await waitFor(async () => {
      const res = await get(`/api/jobs/${started.job_id}/result`);
      return res.status === 200 ? res : undefined;
    }, 'the job result');
    expect(result.headers.get('vitrine-provenance')).toBe(expected);
  });

  it("a layer's result, the room's provenance and a snapshot say what made each result, defaults filled in", async () => {
    const created = await post('/api/rooms/prov/layers', { id: 'rim', source: { function: 'ring', params: { segments: 12 } } });
    expect(created.status).toBe(201);
    const scene = await waitFor(async () => {
      const s = (await (await get('/api/rooms/prov/scene')).json()) as RoomScene;
      return s.layers[0]?.result ? s : undefined;
    }, 'the layer result');
    const provenance: Provenance = { plugin: 'shapes', version: '1.0.0', bundle, function: 'ring', params: { ...DEFAULTS, segments: 12 }, host: hostVersion };
    expect(scene.layers[0]!.result!.provenance).toEqual(provenance);
    const listed = (await (await get('/api/rooms/prov/provenance')).json()) as { entry: Provenance | null; layers: { id: string; provenance: Provenance }[] };
    expect(listed.layers).toEqual([{ id: 'rim', provenance }]);
    expect(listed.entry).toEqual(provenance);
    const snap = (await (await post('/api/rooms/prov/snapshots', {})).json()) as { id: string };
    const doc = (await (await get(`/api/snapshots/${snap.id}`)).json()) as { scene: RoomScene };
    expect(doc.scene.layers[0]!.result!.provenance).toEqual(provenance);
  });

  it("a room's picture and its Neuroglancer state say what made each layer drawn", async () => {
    expect((await post('/api/rooms/figure/layers', { id: 'rim', source: { function: 'ring', params: { segments: 10 } } })).status).toBe(201);
    await waitFor(async () => ((await (await get('/api/rooms/figure/scene')).json()) as RoomScene).layers[0]?.result, 'the layer result');
    const made = `ring({"mode":"fast","radius":1.5,"segments":10}) by shapes@1.0.0 (bundle ${bundle.slice(0, 12)}), vitrine ${hostVersion}`;
    const picture = await get('/api/rooms/figure/image?w=64&h=48');
    expect(picture.status).toBe(200);
    const text = readPngText(new Uint8Array(await picture.arrayBuffer()));
    expect(text.Software).toBe(`vitrine ${hostVersion}`);
    expect(text.Title).toBe('room figure');
    expect(text.Comment).toBe(`layer rim: ${made}`);
    const recorded = JSON.parse(text['vitrine:provenance']!) as { layers: { id: string; provenance: Provenance }[] };
    const provenance: Provenance = { plugin: 'shapes', version: '1.0.0', bundle, function: 'ring', params: { ...DEFAULTS, segments: 10 }, host: hostVersion };
    expect(recorded.layers).toEqual([{ id: 'rim', provenance }]);
    const state = (await (await get('/api/rooms/figure/neuroglancer')).json()) as { title: string; layers: { name: string; description?: string }[] };
    expect(state.layers.find((layer) => layer.name === 'rim')?.description).toBe(made);
    expect(state.title).toBe(`vitrine room figure — rim: ${made}`);
  });
});
