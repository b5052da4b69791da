/**
 * A room as a file in the web viewer: "Download session" on a page following a room of two
 * layers downloads `<id>.vitrine` (a tar archive the system's `tar` lists), and "Open session"
 * on a page of another room takes that file in and opens the snapshot read-only; "Restore into
 * room" then makes it that room's scene, each layer showing the result the first room showed;
 * a page of that room whose blobs the host no longer had would have its layers computed again.
 * The room also shows an array published for it and a mark: the same file taken in by a second
 * host (its own data folder, the same plugins) brings the array along, so a page following the
 * room restored there draws every layer and the mark, its stage region by region as the first
 * host's page draws it. A room whose active layer is such an array (with a unit), restored
 * from its snapshot and from its session file into rooms of other names, on the same host and on
 * the second, lists the array in each room's catalog and draws every layer and mark region by
 * region as the original's page does, its scale bar in the array's unit; the file's preview
 * ("Open session") on a page of yet another room draws both layers, in that unit too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { PNG } from 'pngjs';
import { builtFixture } from '../helpers/built-fixture.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { DRAW_SCALE, layersDrawn, openPage, shot, waitForDrawn } from './browser-session.ts';
import { FilePage } from './file-page.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let other: RunningHost | undefined;
let browser: Browser;
/**
 * The page each check loads its own URL into, in turn (file-page.ts): a page opened for each
 * cost Chromium a renderer and a cold start of the viewer each time. The first host's page of
 * the room the file is made of is a page of its own, open beside it through the second test.
 */
let tab: FilePage;
/** The session file the first test downloads, and the first host's page following the room it was made of. */
let saved: { file: string; id: string; page: Page } | undefined;
const LAYERS = ['cloud', 'ball', 'scan'];
const JSON_TYPE = { 'content-type': 'application/json' };
const contexts: BrowserContext[] = [];
const [from, into] = [freshRoom('session-from'), freshRoom('session-into')];

async function scene(r: string): Promise<RoomScene> {
  return (await (await fetch(`${host.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
}

beforeAll(async () => {
  const [plugins, specimens] = await Promise.all([builtFixture('browser-plugins'), mkdtemp(join(tmpdir(), 'vitrine-session-specimens-'))]);
  [host, browser] = await Promise.all([
    spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', specimens]),
    fileBrowser(DRAW_SCALE),
  ]);
  tab = new FilePage(browser, { viewport: { width: 1440, height: 900 } });
  const scan = `${host.url}/api/specimens/${from}.scan?filename=scan.npy&room=${from}`;
  const array = { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([8, 8, 8])) };
  expect((await fetch(scan, array)).status).toBe(201);
  const put = await fetch(`${host.url}/api/rooms/${from}/scene`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      layers: [
        { id: 'cloud', source: { function: 'galaxy', params: { count: 400 } } },
        { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
        { id: 'scan', source: { specimen: `${from}.scan` }, opacity: 0.5 },
      ],
      active: 'ball',
    }),
  });
  expect(put.status).toBe(200);
  const mark = { kind: 'point', label: 'here', points: [[2, 2, 2]] };
  const marked = await fetch(`${host.url}/api/rooms/${from}/annotations`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(mark) });
  expect(marked.status).toBe(201);
}, 180_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await host?.stop();
  await other?.stop();
});

/** The stage canvas's picture as a grid of 6×4 regions, each its mean colour. */
async function regions(page: Page): Promise<number[][]> {
  const png = PNG.sync.read(await page.locator('canvas.stage-canvas').screenshot());
  const [cols, rows] = [6, 4];
  const means: number[][] = [];
  for (let gy = 0; gy < rows; gy++)
    for (let gx = 0; gx < cols; gx++) {
      const sum = [0, 0, 0];
      let n = 0;
      for (let y = Math.floor((gy * png.height) / rows); y < Math.floor(((gy + 1) * png.height) / rows); y += 2)
        for (let x = Math.floor((gx * png.width) / cols); x < Math.floor(((gx + 1) * png.width) / cols); x += 2, n++)
          for (let c = 0; c < 3; c++) sum[c]! += png.data[(y * png.width + x) * 4 + c]!;
      means.push(sum.map((v) => v / n));
    }
  return means;
}

/** Waits until the stage draws `count` marks. */
const marksDrawn = (page: Page, count: number) =>
  page.waitForFunction((n) => Number(document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.marks ?? -1) === n, count, { timeout: STATE_WAIT_MS });

describe('a session file in the viewer', { timeout: 300_000 }, () => {
  it('downloads from one room, opens in another and restores there with the same results', async () => {
    const a = await openPage(browser, contexts, `${host.url}/${viewerQuery({ room: from, follow: true })}`);
    await layersDrawn(a.page, LAYERS);
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('download-session').click()]);
    expect(download.suggestedFilename()).toMatch(/^[0-9a-f]{64}\.vitrine$/);
    const file = join(await mkdtemp(join(tmpdir(), 'vitrine-session-')), download.suggestedFilename());
    await download.saveAs(file);
    saved = { file, id: download.suggestedFilename().slice(0, 64), page: a.page };
    expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' })).toMatch(/^vitrine\.json\nsnapshot\.json\nresults\//);

    const b = await tab.open(`${host.url}/${viewerQuery({ room: into })}`);
    await b.page.getByTestId('session-file').setInputFiles(file);
    await b.page.waitForURL(new RegExp(`snapshot=${download.suggestedFilename().slice(0, 64)}`));
    await b.page.getByTestId('snapshot-banner').waitFor();
    await layersDrawn(b.page, LAYERS);
    await shot(b.page, 'session-opened');
    await b.page.getByTestId('restore-snapshot').click();
    await b.page.waitForURL(/follow=1/);
    await layersDrawn(b.page, LAYERS);
    const ids = (s: RoomScene) => s.layers.map((layer) => [layer.id, layer.result?.result_id]);
    expect(ids(await scene(into))).toEqual(ids(await scene(from)));

    // A restored layer names only the snapshot's blob: were the host to let it go, the room's layer computes it again.
    // (A routed page keeps nothing in the HTTP cache: every request of the load is made.)
    const gone = JSON.stringify({ status_code: 404, detail: 'gone', code: 'SPC_ERR_BLOB_NOT_FOUND' });
    await b.page.route('**/api/blobs/**', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: gone }));
    const before = [...a.errors, ...b.errors];
    const c = await tab.open(`${host.url}/${viewerQuery({ room: into, follow: true })}`);
    await layersDrawn(c.page, LAYERS);
    expect(c.requests.some((r) => r.url().includes(`/api/rooms/${into}/layers/cloud/data`))).toBe(true);
    await c.page.unrouteAll();
    expect([...before, ...c.errors]).toEqual([]);
  });

  it('taken in by another host, draws in a page following the room restored there as on the first', async () => {
    const plugins = await builtFixture('browser-plugins');
    other = await spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', 'none', '--data-dir', tempDataDir()]);
    const { file, id, page: a } = saved!;
    const body = Uint8Array.from(await readFile(file));
    const imported = await fetch(`${other.url}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body });
    expect(imported.status).toBe(201);
    const restore = { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ snapshot: id }) };
    expect((await fetch(`${other.url}/api/rooms/${from}/scene`, restore)).status).toBe(200);
    for (const layer of LAYERS) expect((await fetch(`${other.url}/api/rooms/${from}/layers/${layer}/data`)).status, layer).toBe(200);

    const b = await tab.open(`${other.url}/${viewerQuery({ room: from, follow: true })}`);
    await layersDrawn(b.page, LAYERS);
    await Promise.all([marksDrawn(a, 1), marksDrawn(b.page, 1)]);
    await Promise.all([waitForDrawn(a), waitForDrawn(b.page)]);
    await Promise.all([shot(a, 'session-host-a'), shot(b.page, 'session-host-b')]);
    const [mine, theirs] = await Promise.all([regions(a), regions(b.page)]);
    mine.forEach((mean, i) => mean.forEach((v, c) => expect(Math.abs(v - theirs[i]![c]!), `region ${i} channel ${c}`).toBeLessThan(12)));
    expect(await b.page.getByText('stale').count()).toBe(0);
    expect(b.errors).toEqual([]);
  });

  it('restored into rooms of other names, on this host and another, draws as the original with its units', async () => {
    const rep = freshRoom('rep');
    const scan = `${host.url}/api/specimens/${rep}.scan?filename=scan.npy&room=${rep}&unit=micrometer`;
    const array = { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([8, 8, 8])) };
    expect((await fetch(scan, array)).status).toBe(201);
    const layers = [
      { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
      { id: 'scan', source: { specimen: `${rep}.scan` }, opacity: 0.5 },
    ];
    const put = { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ layers, active: 'scan' }) };
    expect((await fetch(`${host.url}/api/rooms/${rep}/scene`, put)).status).toBe(200);
    const mark = { kind: 'point', label: 'here', points: [[2, 2, 2]] };
    expect((await fetch(`${host.url}/api/rooms/${rep}/annotations`, { method: 'POST', headers: JSON_TYPE, body: JSON.stringify(mark) })).status).toBe(201);
    const { id } = (await (await fetch(`${host.url}/api/rooms/${rep}/snapshots`, { method: 'POST' })).json()) as { id: string };
    const file = Uint8Array.from(Buffer.from(await (await fetch(`${host.url}/api/snapshots/${id}?format=bundle`)).arrayBuffer()));
    const plugins = await builtFixture('browser-plugins');
    other ??= await spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', 'none', '--data-dir', tempDataDir()]);
    expect((await fetch(`${other.url}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body: file })).status).toBe(201);
    const restore = { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ snapshot: id }) };
    const targets = [
      { base: host.url, room: freshRoom('rep-b') },
      { base: other.url, room: freshRoom('rep-c') },
    ];
    for (const { base, room } of targets) {
      expect((await fetch(`${base}/api/rooms/${room}/scene`, restore)).status).toBe(200);
      const catalog = (await (await fetch(`${base}/api/specimens?room=${room}`)).json()) as { id: string }[];
      expect(catalog.map((entry) => entry.id)).toContain(`${room}.scan`);
    }

    /** A page following `room` of `base`, once it draws every layer and the mark, with its scale bar's label. */
    const follow = async (base: string, room: string) => {
      const opened = await tab.open(`${base}/${viewerQuery({ room, follow: true })}`);
      await layersDrawn(opened.page, ['ball', 'scan']);
      await marksDrawn(opened.page, 1);
      await waitForDrawn(opened.page);
      // Lengths in the array's unit, never the bare 'units' of a page that found no specimen.
      await opened.page.waitForFunction(() => /\d micrometer$/.test(document.querySelector('[data-testid=scale-bar-label]')?.textContent ?? ''), null, {
        timeout: STATE_WAIT_MS,
      });
      return opened;
    };
    const original = await follow(host.url, rep);
    const label = await original.page.locator('[data-testid=scale-bar-label]').textContent();
    const mine = await regions(original.page);
    expect(original.errors).toEqual([]);
    for (const { base, room } of targets) {
      const copy = await follow(base, room);
      expect(await copy.page.getByText('Choose a specimen').count()).toBe(0);
      expect(await copy.page.locator('[data-testid=scale-bar-label]').textContent()).toBe(label);
      await shot(copy.page, `session-renamed-${base === host.url ? 'same-host' : 'other-host'}`);
      const theirs = await regions(copy.page);
      mine.forEach((mean, i) => mean.forEach((v, c) => expect(Math.abs(v - theirs[i]![c]!), `${room}: region ${i} channel ${c}`).toBeLessThan(12)));
      expect(copy.errors).toEqual([]);
    }
  });

  it('opened on a page of another room, previews the array its active layer shows, in the array’s unit', async () => {
    const rep = freshRoom('rep');
    const scan = `${host.url}/api/specimens/${rep}.scan?filename=scan.npy&room=${rep}&unit=micrometer`;
    const array = { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: Uint8Array.from(npyBytes([8, 8, 8])) };
    expect((await fetch(scan, array)).status).toBe(201);
    const layers = [
      { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
      { id: 'scan', source: { specimen: `${rep}.scan` }, opacity: 0.5 },
    ];
    const put = { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ layers, active: 'scan' }) };
    expect((await fetch(`${host.url}/api/rooms/${rep}/scene`, put)).status).toBe(200);
    const { id } = (await (await fetch(`${host.url}/api/rooms/${rep}/snapshots`, { method: 'POST' })).json()) as { id: string };
    const buffer = Buffer.from(await (await fetch(`${host.url}/api/snapshots/${id}?format=bundle`)).arrayBuffer());

    const preview = await tab.open(`${host.url}/${viewerQuery({ room: freshRoom('rep-b') })}`);
    await preview.page.getByTestId('session-file').setInputFiles({ name: `${id}.vitrine`, mimeType: 'application/x-tar', buffer });
    await preview.page.getByTestId('snapshot-banner').waitFor();
    await layersDrawn(preview.page, ['ball', 'scan']);
    // The scale bar reads in the array's unit, never the bare 'units' of a frame whose result was not found.
    await preview.page.waitForFunction(() => /\d micrometer$/.test(document.querySelector('[data-testid=scale-bar-label]')?.textContent ?? ''), null, {
      timeout: STATE_WAIT_MS,
    });
    expect(await preview.page.getByText('Choose a specimen').count()).toBe(0);
    await shot(preview.page, 'session-renamed-preview');
    expect(preview.errors).toEqual([]);
  });
});
