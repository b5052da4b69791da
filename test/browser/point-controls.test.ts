/**
 * The point cloud controls in Chromium against a real host serving the example galaxy file:
 * a size slider that makes the points cover more of the stage, and the colour fact over the
 * canvas that follows the colour switch; and the camera in a shared link (a page opened on
 * it shows the view its sender left). Screenshots are written for a person to look at
 * (browser-session.ts says where).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { shot, STATE_WAIT_MS, waitForDrawn, waitForState } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;
let specimensDir: string;

beforeAll(async () => {
  specimensDir = await mkdtemp(path.join(tmpdir(), 'vitrine-point-controls-'));
  await cp(path.join(REPO, 'specimens', 'two-arm-galaxy'), path.join(specimensDir, 'two-arm-galaxy'), { recursive: true });
  [host, browser] = await Promise.all([spawnHost(['--port', '0', '--plugins', path.join(specimensDir, 'none'), '--specimens', specimensDir]), fileBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await rm(specimensDir, { recursive: true, force: true });
});

/** Stage pixels brighter than the dark background, as a share of the stage. */
async function litShare(page: Page): Promise<number> {
  const png = PNG.sync.read(await page.locator('canvas.stage-canvas').screenshot());
  let lit = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! + png.data[i + 1]! + png.data[i + 2]! > 90) lit++;
  return lit / (png.width * png.height);
}

const stat = (page: Page, key: string) => page.locator(`[data-testid=stats] [data-stat=${key}] dd`);

describe('point cloud controls', () => {
  it('a size slider grows the points; the colour fact follows the colour switch', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${host.url}/?specimen=two-arm-galaxy`);
    await waitForState(page, '[data-testid=job-state]', ['done']);
    await page.locator('[data-testid=points-panel]').waitFor();
    expect(await stat(page, 'colors').textContent()).toBe('RGB');

    const small = await litShare(page);
    await shot(page, 'points-size-1x');
    await page.locator('[data-testid=point-size]').fill('2');
    await expect.poll(() => page.locator('[data-testid=point-size-value]').textContent()).toBe('4×');
    await expect.poll(() => litShare(page), { timeout: STATE_WAIT_MS }).toBeGreaterThan(small * 1.5);
    await shot(page, 'points-size-4x');

    await page.selectOption('[data-testid=point-colouring]', 'single');
    await expect.poll(() => stat(page, 'colors').textContent()).toBe('one colour');
    await page.selectOption('[data-testid=point-colouring]', 'own');
    await expect.poll(() => stat(page, 'colors').textContent()).toBe('RGB');
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Share of stage pixels whose brightness differs by more than a little. */
function difference(a: PNG, b: PNG): number {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const da = a.data[i]! + a.data[i + 1]! + a.data[i + 2]!;
    const db = b.data[i]! + b.data[i + 1]! + b.data[i + 2]!;
    if (Math.abs(da - db) > 60) changed++;
  }
  return changed / (a.width * a.height);
}

async function opened(url: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(url);
  await waitForState(page, '[data-testid=job-state]', ['done']);
  await page.locator('[data-testid=points-panel]').waitFor();
  await waitForDrawn(page);
  return page;
}

const stage = async (page: Page): Promise<PNG> => PNG.sync.read(await page.locator('canvas.stage-canvas').screenshot());

describe('a shared link', () => {
  it('carries the camera: a page opened on it shows the view its sender left', async () => {
    const sender = await opened(`${host.url}/?specimen=two-arm-galaxy`);
    const framed = await stage(sender);
    // Orbit: drag across the stage.
    const box = (await sender.locator('canvas.stage-canvas').boundingBox())!;
    await sender.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await sender.mouse.down();
    await sender.mouse.move(box.x + box.width / 2 + 180, box.y + box.height / 2 - 120, { steps: 8 });
    await sender.mouse.up();
    // At rest (the first frame damping no longer moves it), its pose is in the link.
    await sender.waitForFunction(() => document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.camera === 'still', null, {
      timeout: STATE_WAIT_MS,
    });
    expect(new URL(sender.url()).searchParams.get('cam')).toMatch(/^(-?[\d.e-]+,){5}-?[\d.e-]+$/);
    const left = await stage(sender);
    expect(difference(framed, left)).toBeGreaterThan(0.01);
    await shot(sender, 'shared-link-sender');

    const receiver = await opened(sender.url());
    expect(difference(left, await stage(receiver))).toBeLessThan(0.005);
    await shot(receiver, 'shared-link-receiver');
    // A link without it still frames the specimen.
    const plain = await opened(`${host.url}/?specimen=two-arm-galaxy`);
    expect(difference(framed, await stage(plain))).toBeLessThan(0.005);
  });
});

