/**
 * Plugin versions side by side on a real host: a layer pinned to a version keeps it after a
 * reload brings a newer one, a layer that pins none is computed again with the newest (its
 * followers get `computing` and `result`), every reload says in the log what came and went,
 * a snapshot pins each layer's bundle and verifies as `same` while its version is kept, and
 * once that version is pushed out, verifying says `unavailable` and restoring answers 409. A
 * version dropped in after a later one (a downgrade) serves and is said (a warning,
 * `downgraded_from` in the versions listing and `downgraded` in the reload's answer); a
 * snapshot of a plugin taken out restores to 409.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { computedProvenance } from '../../core/wire/provenance-types.ts';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let url: string;
let plugins: string;
let log = '';

const send = (method: string, p: string, body?: unknown) =>
  fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const sceneOf = async (room: string) => (await (await fetch(`${url}/api/rooms/${room}/scene`)).json()) as RoomScene;
const layerOf = async (room: string, id: string) => (await sceneOf(room)).layers.find((l) => l.id === id)!;
type Reloaded = { problems: string[]; downgraded: { plugin: string; from: string; to: string }[] };
const reload = async () => (await (await fetch(`${url}/api/specimens/reload`)).json()) as Reloaded;
const logLines = () => log.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { msg: string }).msg);

async function computed(room: string, id: string, version: string): Promise<SceneLayer> {
  return waitFor(async () => {
    const layer = await layerOf(room, id);
    return computedProvenance(layer.result?.provenance)?.version === version ? layer : undefined;
  }, `layer ${id} computed by ${version}`);
}

beforeAll(async () => {
  await Promise.all([shapesVersion('1.0.0', '1.5'), shapesVersion('1.1.0', '2.5'), shapesVersion('1.2.0', '3.5')]);
  plugins = await pluginsFolder();
  await dropIn(await shapesVersion('1.0.0', '1.5'), plugins);
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  app = await createApp({ pluginsDir: plugins, specimensDir: null, logLevel: 'info', logStream, poolSize: 2, viewer: false, pluginVersions: 2 });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
}, 300_000);
afterAll(() => app?.close());

describe('plugin versions side by side', { timeout: 180_000 }, () => {
  it('keeps pinned layers, follows the newest with the others, and refuses a version pushed out', async () => {
    const pinnedSource = { function: 'ring', params: { segments: 8 }, version: '1.0.0' };
    expect((await send('POST', '/api/rooms/side/layers', { id: 'pinned', source: pinnedSource })).status).toBe(201);
    expect((await send('POST', '/api/rooms/side/layers', { id: 'follow', source: { function: 'ring', params: { segments: 8 } } })).status).toBe(201);
    const pinnedBefore = await computed('side', 'pinned', '1.0.0');
    const followBefore = await computed('side', 'follow', '1.0.0');
    const snapshot = (await (await send('POST', '/api/rooms/side/snapshots', {})).json()) as { id: string };
    const recorded = (await (await fetch(`${url}/api/snapshots/${snapshot.id}`)).json()) as { scene: RoomScene };
    const bundle1 = computedProvenance(followBefore.result!.provenance)!.bundle!;
    expect(recorded.scene.layers.map((l) => l.source.version)).toEqual([bundle1, bundle1]);

    // A new version with another default is dropped in: the following layer is computed again, with its events.
    const events = await openStream(`${url}/api/rooms/side/events`);
    await dropIn(await shapesVersion('1.1.0', '2.5'), plugins);
    expect(await reload()).toMatchObject({ problems: [], downgraded: [] });
    await events.next((e) => e.event === 'computing' && (e.data as { layer?: string }).layer === 'follow');
    await events.next((e) => e.event === 'result' && (e.data as { layer?: string }).layer === 'follow');
    events.close();
    const followAfter = await computed('side', 'follow', '1.1.0');
    expect(computedProvenance(followAfter.result!.provenance)!.params).toEqual({ radius: 2.5, mode: 'fast', segments: 8 });
    expect(followAfter.result!.result_id).not.toBe(followBefore.result!.result_id);
    expect(logLines()).toContainEqual(expect.stringMatching(/^plugins reloaded: came shapes@1\.1\.0 \(bundle [0-9a-f]{12}\)$/));

    const pinnedData = await fetch(`${url}/api/rooms/side/layers/pinned/data`);
    expect(pinnedData.status).toBe(200);
    expect(pinnedData.headers.get('x-result-id')).toBe(pinnedBefore.result!.result_id);
    expect(pinnedData.headers.get('vitrine-provenance')).toBe(`shapes@1.0.0; bundle=${bundle1.slice(0, 12)}`);
    expect((await layerOf('side', 'pinned')).result!.result_id).toBe(pinnedBefore.result!.result_id);

    type Listed = { plugins: { plugin: string; versions: { version: string; serving: boolean; rooms: string[] }[] }[] };
    const listed = (await (await fetch(`${url}/api/plugins`)).json()) as Listed;
    expect(listed.plugins[0]!.versions.map((v) => [v.version, v.serving, v.rooms])).toEqual([['1.1.0', true, ['side']], ['1.0.0', false, ['side']]]);
    const same = (await (await send('POST', `/api/snapshots/${snapshot.id}/verify`)).json()) as { layers: { id: string; status: string }[] };
    expect(same.layers.map((l) => [l.id, l.status])).toEqual([['pinned', 'same'], ['follow', 'same']]);

    // A third version pushes the first out of the two kept.
    await dropIn(await shapesVersion('1.2.0', '3.5'), plugins);
    expect((await reload()).problems).toEqual([]);
    const cameAndWent = /^plugins reloaded: came shapes@1\.2\.0 \(bundle \w{12}\); went shapes@1\.0\.0 \(bundle \w{12}\)$/;
    expect(logLines()).toContainEqual(expect.stringMatching(cameAndWent));
    const gone = (await (await send('POST', `/api/snapshots/${snapshot.id}/verify`)).json()) as { layers: { status: string; detail: string }[] };
    expect(gone.layers.map((l) => l.status)).toEqual(['unavailable', 'unavailable']);
    expect(gone.layers[0]!.detail).toContain(`plugin 'shapes' version '${bundle1}'`);
    const restore = await send('PUT', '/api/rooms/again/scene', { snapshot: snapshot.id });
    expect(restore.status).toBe(409);
    const namesBundle = expect.stringContaining(`plugin 'shapes' version '${bundle1}'`);
    expect(await restore.json()).toMatchObject({ code: 'SPC_ERR_PLUGIN_VERSION_GONE', detail: namesBundle });
    const pinnedGone = await fetch(`${url}/api/rooms/side/layers/pinned/data`);
    expect(pinnedGone.status).toBe(409);
    const named = expect.stringContaining("plugin 'shapes' version '1.0.0'");
    expect(await pinnedGone.json()).toMatchObject({ code: 'SPC_ERR_PLUGIN_VERSION_GONE', detail: named });
  });

  // Goes on from where the test above left the host: 1.2.0 serving, 1.1.0 kept beside it.
  it('says a downgrade, and answers 409 for a snapshot of a plugin taken out', async () => {
    const levels = () => log.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: number; msg: string });
    await dropIn(await shapesVersion('1.1.0', '2.5'), plugins);
    // The reload's own answer says it, for whoever reloads and reads no log.
    expect(await reload()).toMatchObject({ problems: [], downgraded: [{ plugin: 'shapes', from: '1.2.0', to: '1.1.0' }] });
    const said = levels().find((line) => line.msg.includes('shapes went back from 1.2.0 to 1.1.0'));
    expect(said?.level).toBe(40);
    type Listed = { plugins: { plugin: string; version: string; downgraded_from: string | null }[] };
    const listed = (await (await fetch(`${url}/api/plugins`)).json()) as Listed;
    expect(listed.plugins[0]).toMatchObject({ plugin: 'shapes', version: '1.1.0', downgraded_from: '1.2.0' });

    expect((await send('POST', '/api/rooms/gone/layers', { id: 'ring', source: { function: 'ring', params: { segments: 6 } } })).status).toBe(201);
    await computed('gone', 'ring', '1.1.0');
    const snapshot = (await (await send('POST', '/api/rooms/gone/snapshots', {})).json()) as { id: string };
    // The plugin is taken out of the plugins folder: every version of it goes.
    await rm(path.join(plugins, 'shapes'), { recursive: true, force: true });
    await reload();
    const restore = await send('PUT', '/api/rooms/gone-again/scene', { snapshot: snapshot.id });
    expect(restore.status).toBe(409);
    expect(await restore.json()).toMatchObject({ code: 'SPC_ERR_PLUGIN_VERSION_GONE', detail: expect.stringContaining("plugin 'shapes' version") });
  });
});
