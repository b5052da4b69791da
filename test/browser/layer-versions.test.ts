/**
 * A layer's plugin version in the viewer: each row of a following page says which plugin and
 * version made its layer (the whole record in its tooltip), a pinned layer says so; after a new
 * version is dropped in and reloaded, the layer that follows the newest shows the new version
 * and the pinned one offers "Update to 1.1.0", which moves it for everyone in the room. A version
 * that refuses a layer's parameters leaves the layer stale (its row says so, with why) and its
 * row offers to keep the version that made it or take the new one with the parameters that fit.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computedProvenance } from '../../core/wire/provenance-types.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { dropIn, pluginsFolder, shapesVersion } from '../helpers/versioned-plugin.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { DRAW_SCALE, shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;
let plugins: string;

const send = async (method: string, path: string, body?: unknown): Promise<Response> =>
  fetch(`${host.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const made = (page: Page, id: string) => page.locator(`[data-testid=layer-row][data-layer=${id}] [data-testid=layer-made]`);
const offer = (page: Page, id: string, control: string) => page.locator(`[data-testid=layer-row][data-layer=${id}] [data-control=${control}]`);
const update = (page: Page, id: string) => offer(page, id, 'update');

async function madeText(page: Page, id: string, want: string): Promise<void> {
  await waitFor(async () => ((await made(page, id).textContent()) === want ? true : undefined), `layer ${id} to say '${want}'`);
}

beforeAll(async () => {
  plugins = await pluginsFolder();
  const [first] = await Promise.all([shapesVersion('1.0.0'), shapesVersion('1.1.0', '2.5'), shapesVersion('2.0.0', '2.5', 'mode-renamed')]);
  await dropIn(first, plugins);
  [host, browser] = await Promise.all([
    spawnHost(['--port', '0', '--plugins', plugins, '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn']),
    fileBrowser(DRAW_SCALE),
  ]);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

async function openRoom(room: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.url}/${viewerQuery({ room, follow: true })}`);
  return { page, errors };
}

describe('layer versions in the viewer', { timeout: 240_000 }, () => {
  it('names the version behind each layer and moves a pinned one to the newest on request', async () => {
    const room = freshRoom('versions');
    expect((await send('POST', `/api/rooms/${room}/layers`, { id: 'follows', source: { function: 'ring', params: { segments: 9 } } })).status).toBe(201);
    const pinned = { id: 'pinned', source: { function: 'ring', params: { segments: 7 }, version: '1.0.0' } };
    expect((await send('POST', `/api/rooms/${room}/layers`, pinned)).status).toBe(201);
    const { page, errors } = await openRoom(room);

    await madeText(page, 'follows', 'shapes 1.0.0');
    await madeText(page, 'pinned', 'shapes 1.0.0 (pinned)');
    const record = /^ring\(.*"segments":9.*\) by shapes@1\.0\.0 \(bundle [0-9a-f]{12}\), vitrine .*; follows the newest version$/;
    expect(await made(page, 'follows').getAttribute('title')).toMatch(record);
    expect(await made(page, 'pinned').getAttribute('title')).toMatch(/; pinned to 1\.0\.0$/);
    expect(await update(page, 'pinned').isVisible()).toBe(false);

    // A new version dropped in and reloaded: the following layer takes it, the pinned one is offered it.
    await dropIn(await shapesVersion('1.1.0', '2.5'), plugins);
    expect((await fetch(`${host.url}/api/specimens/reload`)).status).toBe(200);
    await madeText(page, 'follows', 'shapes 1.1.0');
    await waitFor(async () => ((await update(page, 'pinned').isVisible()) ? true : undefined), 'the pinned layer offered the update');
    expect(await update(page, 'pinned').textContent()).toBe('Update to 1.1.0');
    expect(await made(page, 'pinned').textContent()).toBe('shapes 1.0.0 (pinned)');
    await shot(page, 'layer-versions-offered');

    await update(page, 'pinned').click();
    await madeText(page, 'pinned', 'shapes 1.1.0 (pinned)');
    expect(await update(page, 'pinned').isVisible()).toBe(false);
    const scene = (await (await send('GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
    expect(scene.layers.find((l) => l.id === 'pinned')?.source).toEqual({ function: 'ring', params: { segments: 7 }, version: '1.1.0' });
    expect(scene.layers.find((l) => l.id === 'pinned')?.result?.provenance).toMatchObject({ plugin: 'shapes', version: '1.1.0' });
    await shot(page, 'layer-versions-updated');
    expect(errors).toEqual([]);
  });

  it('marks a layer stale when a new version refuses its parameters, and takes the new one with those that fit', async () => {
    const room = freshRoom('stale');
    const source = { function: 'ring', params: { mode: 'fast', segments: 6 } };
    expect((await send('POST', `/api/rooms/${room}/layers`, { id: 'fast', source })).status).toBe(201);
    // The version serving now (1.1.0 after the test above; 1.0.0 alone).
    const computed = await waitFor(async () => ((await (await send('GET', `/api/rooms/${room}/scene`)).json()) as RoomScene).layers[0]?.result, 'the result');
    const before = computedProvenance(computed.provenance)!.version!;
    const { page, errors } = await openRoom(room);
    await madeText(page, 'fast', `shapes ${before}`);

    await dropIn(await shapesVersion('2.0.0', '2.5', 'mode-renamed'), plugins);
    expect((await fetch(`${host.url}/api/specimens/reload`)).status).toBe(200);
    const status = page.locator('[data-testid=layer-row][data-layer=fast] [data-testid=layer-status]');
    await waitFor(async () => ((await status.textContent()) === 'stale' ? true : undefined), 'the row to say stale');
    expect(await status.getAttribute('title')).toContain("parameter 'mode'");
    expect(await made(page, 'fast').textContent()).toBe(`shapes ${before}`);
    expect(await offer(page, 'fast', 'keep').textContent()).toBe(`Keep ${before}`);
    expect(await offer(page, 'fast', 'take').textContent()).toBe('Take 2.0.0');
    expect(await offer(page, 'fast', 'take').getAttribute('title')).toBe('Follow shapes 2.0.0, without mode (left to the default)');
    await shot(page, 'layer-versions-stale');

    await offer(page, 'fast', 'take').click();
    await madeText(page, 'fast', 'shapes 2.0.0');
    await waitFor(async () => ((await status.textContent()) === '' ? true : undefined), 'the row no longer stale');
    const scene = (await (await send('GET', `/api/rooms/${room}/scene`)).json()) as RoomScene;
    expect(scene.layers[0]).toMatchObject({ source: { function: 'ring', params: { segments: 6 } }, result: { provenance: { version: '2.0.0' } } });
    expect(scene.layers[0]!.stale).toBeUndefined();
    expect(errors).toEqual([]);
  });
});
