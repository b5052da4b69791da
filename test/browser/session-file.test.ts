/**
 * A room as a file in the web viewer: "Download session" on a page following a room of two
 * layers downloads `<id>.vitrine` (a tar archive the system's `tar` lists), and "Open session"
 * on a page of another room takes that file in and opens the snapshot read-only; "Restore into
 * room" then makes it that room's scene, each layer showing the result the first room showed;
 * a page of that room whose blobs the host no longer had would have its layers computed again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { openPage, shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];
const [from, into] = [freshRoom('session-from'), freshRoom('session-into')];

async function scene(r: string): Promise<RoomScene> {
  return (await (await fetch(`${host.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
}

/** Waits until the stage draws exactly the layers `ids`. */
async function drawn(page: Page, ids: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => (document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '').split(' ').sort().join(' ') === want,
    [...ids].sort().join(' '),
    { timeout: STATE_WAIT_MS },
  );
}

beforeAll(async () => {
  const [plugins, specimens] = await Promise.all([builtFixture('browser-plugins'), mkdtemp(join(tmpdir(), 'vitrine-session-specimens-'))]);
  [host, browser] = await Promise.all([spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', specimens]), fileBrowser()]);
  const put = await fetch(`${host.url}/api/rooms/${from}/scene`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      layers: [
        { id: 'cloud', source: { function: 'galaxy', params: { count: 400 } } },
        { id: 'ball', source: { function: 'shape', params: { segments: 12 } } },
      ],
      active: 'ball',
    }),
  });
  expect(put.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await browser?.close();
  await host?.stop();
});

describe('a session file in the viewer', { timeout: 300_000 }, () => {
  it('downloads from one room, opens in another and restores there with the same results', async () => {
    const a = await openPage(browser, contexts, `${host.url}/${viewerQuery({ room: from, follow: true })}`);
    await drawn(a.page, ['cloud', 'ball']);
    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('download-session').click()]);
    expect(download.suggestedFilename()).toMatch(/^[0-9a-f]{64}\.vitrine$/);
    const file = join(await mkdtemp(join(tmpdir(), 'vitrine-session-')), download.suggestedFilename());
    await download.saveAs(file);
    expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' })).toMatch(/^vitrine\.json\nsnapshot\.json\nresults\//);

    const b = await openPage(browser, contexts, `${host.url}/${viewerQuery({ room: into })}`);
    await b.page.getByTestId('session-file').setInputFiles(file);
    await b.page.waitForURL(new RegExp(`snapshot=${download.suggestedFilename().slice(0, 64)}`));
    await b.page.getByTestId('snapshot-banner').waitFor();
    await drawn(b.page, ['cloud', 'ball']);
    await shot(b.page, 'session-opened');
    await b.page.getByTestId('restore-snapshot').click();
    await b.page.waitForURL(/follow=1/);
    await drawn(b.page, ['cloud', 'ball']);
    const ids = (s: RoomScene) => s.layers.map((layer) => [layer.id, layer.result?.result_id]);
    expect(ids(await scene(into))).toEqual(ids(await scene(from)));

    // A restored layer names only the snapshot's blob: were the host to let it go, the room's layer computes it again.
    const c = await openPage(browser, contexts, 'about:blank');
    const gone = JSON.stringify({ status_code: 404, detail: 'gone', code: 'SPC_ERR_BLOB_NOT_FOUND' });
    await c.page.route('**/api/blobs/**', (route) => route.fulfill({ status: 404, contentType: 'application/json', body: gone }));
    await c.page.goto(`${host.url}/${viewerQuery({ room: into, follow: true })}`);
    await drawn(c.page, ['cloud', 'ball']);
    expect(c.requests.some((r) => r.url().includes(`/api/rooms/${into}/layers/cloud/data`))).toBe(true);
    expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
  });
});
