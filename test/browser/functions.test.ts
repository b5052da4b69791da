/**
 * The viewer's Functions section: registered functions that no specimen shows are listed, and
 * one opens with its schema panel and runs through /invoke, its result drawn on the stage.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { DRAW_SCALE, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

let host: RunningHost;
let browser: Browser;

beforeAll(async () => {
  [host, browser] = await Promise.all([
    (async () => spawnHost(['--port', '0', '--plugins', await fixturePluginsDir(), '--specimens', 'none', '--pool-size', '1']))(),
    fileBrowser(DRAW_SCALE),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('functions without a specimen in the viewer', () => {
  it('lists them and runs one from its schema panel', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${host.url}/`);
    await page.waitForSelector('[data-testid=functions] .fn-item[data-name=square]');
    const names = await page.locator('[data-testid=functions] .fn-item').evaluateAll((items) => items.map((i) => (i as HTMLElement).dataset.name));
    expect(names).toEqual(expect.arrayContaining(['square', 'ramp', 'checker']));

    await page.click('.fn-item[data-name=square]');
    await waitForText(page, '[data-testid=specimen-title]', 'square');
    await page.waitForSelector('[data-testid=params] [data-param=size]');
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '2');
    expect(new URL(page.url()).searchParams.get('function')).toBe('square');
    await page.close();
  });
});
