/**
 * The point cloud controls in Chromium against a real host serving the example galaxy file:
 * a size slider that makes the points cover more of the stage, and the colour fact over the
 * canvas that follows the colour switch. Screenshots at both sizes are written for a person
 * to look at (browser-session.ts says where).
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { launchBrowser, shot, waitForState } from './browser-session.ts';

let host: RunningHost;
let browser: Browser;
let specimensDir: string;

beforeAll(async () => {
  specimensDir = await mkdtemp(path.join(tmpdir(), 'vitrine-point-controls-'));
  await cp(path.join(REPO, 'specimens', 'two-arm-galaxy'), path.join(specimensDir, 'two-arm-galaxy'), { recursive: true });
  [host, browser] = await Promise.all([spawnHost(['--port', '0', '--plugins', path.join(specimensDir, 'none'), '--specimens', specimensDir]), launchBrowser()]);
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
    await expect.poll(() => litShare(page), { timeout: 15_000 }).toBeGreaterThan(small * 1.5);
    await shot(page, 'points-size-4x');

    await page.selectOption('[data-testid=point-colouring]', 'single');
    await expect.poll(() => stat(page, 'colors').textContent()).toBe('one colour');
    await page.selectOption('[data-testid=point-colouring]', 'own');
    await expect.poll(() => stat(page, 'colors').textContent()).toBe('RGB');
    expect(errors).toEqual([]);
    await context.close();
  });
});
