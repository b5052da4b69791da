/**
 * The viewer and the open formats in a real Chromium against a real host process: a dynamic
 * mesh travels as meshopt GLB (the request names format=glb&compress=meshopt, the answer is
 * model/gltf-binary) and is drawn from it, and the Download menu saves the result as a plain
 * GLB that glTF-Transform reads back. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { readFile } from 'node:fs/promises';
import { NodeIO } from '@gltf-transform/core';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room } from '../helpers/room.ts';
import { DRAW_SCALE, shot, waitForState, waitForText } from './browser-session.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';

const session = browserAndHost([], DRAW_SCALE);

const stat = (key: string): string => `[data-testid=stats] [data-stat=${key}] dd`;

async function open(query: string): Promise<Page> {
  const page = await session.browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  await page.goto(`${session.host.baseUrl}/${query}`);
  await page.waitForSelector('.topbar', { timeout: STATE_WAIT_MS });
  return page;
}

describe('open formats in the viewer', () => {
  it('draws a dynamic mesh fetched as meshopt GLB and downloads it as GLB', async () => {
    const roomId = room();
    const page = await open(`?specimen=shape&room=${roomId}`);
    const dataAnswers: Response[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/specimens/shape/data') dataAnswers.push(response);
    });
    await waitForState(page, '[data-testid=job-state]', ['done', 'cached']);
    await waitForText(page, stat('triangles'), '512');
    await page.waitForFunction(() => document.querySelector('[data-testid=stage-message]')?.getAttribute('data-kind') === 'none');
    expect(dataAnswers.length).toBeGreaterThan(0);
    const answer = dataAnswers.at(-1)!;
    const asked = new URL(answer.url()).searchParams;
    expect([asked.get('format'), asked.get('compress')]).toEqual(['glb', 'meshopt']);
    expect(answer.headers()['content-type']).toBe('model/gltf-binary');
    // The drawn mesh came from the GLB: meshopt's quantised GLB is far smaller than the envelope.
    const glbBytes = (await answer.body()).byteLength;
    expect(glbBytes).toBeLessThan(512 * 24);
    expect(await page.locator('[data-testid=stats] [data-stat=normals] dd').textContent()).toBe('sent');
    await shot(page, 'formats-meshopt-shape');

    // The menu sits in the top bar, in sight without scrolling; opening it moves nothing.
    const summary = page.locator('[data-testid=download-menu] summary');
    const boxes = (): Promise<Record<string, { x: number; y: number; width: number; height: number } | null>> =>
      page.evaluate(() =>
        Object.fromEntries(
          ['[data-testid=download-menu] summary', '.topbar', '.inspector', 'canvas.stage-canvas', '.links'].map((selector) => {
            const r = document.querySelector(selector)?.getBoundingClientRect();
            return [selector, r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null];
          }),
        ),
      );
    const closed = await boxes();
    const viewport = page.viewportSize()!;
    const topbar = closed['.topbar']!;
    const button = closed['[data-testid=download-menu] summary']!;
    expect(button.y).toBeGreaterThanOrEqual(topbar.y);
    expect(button.y + button.height).toBeLessThanOrEqual(topbar.y + topbar.height);
    expect(button.x + button.width).toBeLessThanOrEqual(viewport.width);
    await summary.click();
    const list = page.locator('.download-list');
    await list.waitFor();
    expect(await boxes()).toEqual(closed);
    const drop = (await list.boundingBox())!;
    expect(drop.y).toBeGreaterThanOrEqual(button.y + button.height);
    expect(drop.x).toBeGreaterThanOrEqual(0);
    expect(drop.x + drop.width).toBeLessThanOrEqual(viewport.width);
    expect(drop.y + drop.height).toBeLessThanOrEqual(viewport.height);
    // Drawn over the page: the list is what is on top at its middle.
    expect(
      await page.evaluate(
        ([x, y]) => Boolean(document.elementFromPoint(x!, y!)?.closest('.download-list')),
        [drop.x + drop.width / 2, drop.y + drop.height / 2],
      ),
    ).toBe(true);
    await shot(page, 'formats-download-menu-open');
    // Escape closes it; a click elsewhere does too.
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await summary.click();
    await list.waitFor();
    await page.mouse.click(viewport.width / 2, viewport.height / 2);
    await list.waitFor({ state: 'hidden' });
    await summary.click();
    const links = await page.locator('[data-testid=download-menu] a').evaluateAll((as) => as.map((a) => (a as HTMLElement).dataset.format));
    expect(links).toEqual(['glb', 'glb+meshopt', 'stl', 'obj']);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=download-menu] a[data-format=glb]')]);
    expect(download.suggestedFilename()).toBe('shape.glb');
    const saved = await readFile(await download.path());
    const doc = await new NodeIO().readBinary(new Uint8Array(saved));
    const primitive = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(primitive.getIndices()!.getCount() / 3).toBe(512);
    expect(doc.getRoot().listExtensionsUsed()).toEqual([]);
    await page.close();
  });
});
