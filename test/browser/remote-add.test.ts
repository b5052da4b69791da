/**
 * A remote image added from the page: the layer list's Add picker offers the host's remotes by
 * name (never their URLs); picking one and typing the image's path publishes it in place under
 * the room's name and adds it to the room as a layer, a labels layer for an NGFF label image,
 * drawn like any layer. A path the remote does not hold is said on the page, nothing added.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { samplesOf, startRemoteServer, writeV05 } from '../helpers/zarr-remote.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openPage, shot } from './browser-session.ts';

const remote = await startRemoteServer();
const spec = { axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 8, 8], compression: 'zstd' as const, scale: [2, 1, 1] };
await writeV05(remote.files, { ...spec, path: 'plate/cells.ome.zarr', levels: [{ shape: [8, 16, 16], data: samplesOf('uint16', 2048) }] }, [2, 2, 2]);
await writeV05(remote.files, {
  ...spec, path: 'plate/masks.ome.zarr', labels: true, levels: [{ shape: [8, 16, 16], data: new Uint16Array(2048).map((_, i) => i % 5) }],
});
afterAll(() => remote.close());

const session = browserAndHost(['--remote', `lab=${remote.url}`], DRAW_SCALE);

async function scene(room: string): Promise<RoomScene> {
  return (await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/scene`)).json()) as RoomScene;
}

describe("the Add picker's remotes", () => {
  it('lists the remotes by name and adds an image of one as a layer, read in place', async () => {
    const room = freshRoom('remote-add');
    const { page, errors } = await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${viewerQuery({ room, follow: true })}`);
    const picker = page.locator('[data-testid=add-layer-source]');
    await page.waitForSelector('[data-testid=add-layer-source] option[value="remote:lab"]', { state: 'attached' });
    expect(await picker.locator('optgroup[label=Remotes] option').allTextContents()).toEqual(['lab/…']);
    expect(await picker.innerHTML()).not.toContain(remote.url);

    await picker.selectOption('remote:lab');
    await page.locator('[data-testid=add-remote-path]').fill('plate/cells.ome.zarr');
    await page.locator('[data-testid=add-layer]').click();
    await page.waitForSelector('[data-testid=layer-row]', { timeout: 60_000 });
    const [layer] = (await scene(room)).layers;
    expect(layer?.source).toEqual({ specimen: `${room}.cells`, params: {} });
    expect((await fetch(`${session.host.baseUrl}/api/specimens/${room}.cells`)).status).toBe(200);
    expect(remote.sent.paths).toContain('plate/cells.ome.zarr/zarr.json');
    await page.waitForFunction(() => (document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '') !== '', null, {
      timeout: 120_000,
    });
    expect(remote.sent.paths).toContain('plate/cells.ome.zarr/0/c/0/0/0');

    // A label image comes in as a labels layer.
    await picker.selectOption('remote:lab');
    await page.locator('[data-testid=add-remote-path]').fill('/plate/masks.ome.zarr');
    await page.locator('[data-testid=add-layer]').click();
    await page.waitForSelector('[data-testid=layer-row] >> nth=1', { timeout: 60_000 });
    const masks = (await scene(room)).layers.find((l) => 'specimen' in l.source && l.source.specimen === `${room}.masks`);
    expect(masks?.kind).toBe('labels');
    await shot(page, 'remote-add');
    expect(errors).toEqual([]);
  });

  it('says why when the remote has no image at that path, and adds nothing', async () => {
    const room = freshRoom('remote-missing');
    const { page } = await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${viewerQuery({ room, follow: true })}`);
    await page.waitForSelector('[data-testid=add-layer-source] option[value="remote:lab"]', { state: 'attached' });
    await page.locator('[data-testid=add-layer-source]').selectOption('remote:lab');
    await page.locator('[data-testid=add-remote-path]').fill('plate/none.ome.zarr');
    await page.locator('[data-testid=add-layer]').click();
    await page.waitForFunction(() => /remote image could not be added/.test(document.body.innerText), null, { timeout: 30_000 });
    expect((await scene(room)).layers).toEqual([]);
  });
});
