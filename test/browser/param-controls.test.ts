/**
 * The parameter panel's controls beyond scalars, in a real Chromium against a real host
 * serving test/fixtures/rich-params: a vector field for a tuple, a list editor that keeps its
 * item counts, a colour picker, choices for a number enum and an optional parameter that stays
 * unset until switched on. Each edit reaches the URL (what is sent) with the right JSON types,
 * and the host answers it. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtFixture } from '../helpers/built-fixture.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { DRAW_SCALE, shot, SHOTS_DIR, waitForState, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: RunningHost;
let browser: Browser;

beforeAll(async () => {
  [host, browser] = await Promise.all([
    (async () => spawnHost(['--port', '0', '--plugins', await builtFixture('rich-params'), '--specimens', 'none', '--pool-size', '1']))(),
    fileBrowser(DRAW_SCALE),
  ]);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

const JOB = '[data-testid=job-state]';
const SETTLED = ['done', 'cached'];

/** The params the page's URL carries (what it last asked for). */
function urlParams(page: Page): Record<string, unknown> {
  const raw = new URL(page.url()).searchParams.get('params');
  return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
}

/** Waits until the URL's params satisfy `check`, then for the request to settle. */
async function sent(page: Page, what: string, check: (params: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  await page.waitForFunction(
    (source) => {
      const raw = new URL(window.location.href).searchParams.get('params');
      return (new Function('p', `return (${source})(p)`) as (p: unknown) => boolean)(raw ? JSON.parse(raw) : {});
    },
    check.toString(),
    { timeout: STATE_WAIT_MS },
  ).catch((error: unknown) => {
    throw new Error(`the page never sent ${what} (URL params: ${JSON.stringify(urlParams(page))}): ${String(error)}`);
  });
  expect(await waitForState(page, JOB, [...SETTLED, 'error'])).not.toBe('error');
  return urlParams(page);
}

describe('parameter controls beyond scalars', () => {
  it('edits a vector, a list, a colour, a number choice and an optional parameter', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${host.url}/${viewerQuery({ specimen: 'rich-triangle', room: room() })}`);
    await page.waitForSelector('[data-testid=params] [data-param=axis] .vector-control');
    await waitForText(page, '[data-testid=specimen-title]', 'Rich triangle');
    expect(await waitForState(page, JOB, [...SETTLED, 'error'])).not.toBe('error');

    // The vector: one field per component, labelled x, y, z, showing the default.
    const axis = ['x', 'y', 'z'].map((c) => page.getByLabel(`axis ${c}`, { exact: true }));
    expect(await Promise.all(axis.map((input) => input.inputValue()))).toEqual(['0', '0', '1']);
    await axis[0]!.fill('2.5');
    await axis[0]!.press('Enter');
    expect((await sent(page, 'axis [2.5, 0, 1]', (p) => JSON.stringify(p['axis']) === '[2.5,0,1]'))['axis']).toEqual([2.5, 0, 1]);

    // The list: starts with the default item, adds up to maxItems, removes down to minItems.
    const levels = page.locator('[data-param=levels]');
    const add = page.getByRole('button', { name: 'add levels item' });
    await expect.poll(() => levels.locator('.list-row').count()).toBe(1);
    expect(await levels.getByTestId('list-count').textContent()).toBe('1 item (1–4)');
    expect(await page.getByRole('button', { name: 'remove levels item 1' }).isDisabled()).toBe(true);
    for (let i = 0; i < 3; i++) await add.click();
    expect(await add.isDisabled()).toBe(true);
    expect(await levels.getByTestId('list-count').textContent()).toBe('4 items (1–4)');
    await page.getByLabel('levels item 2', { exact: true }).fill('0.75');
    await page.getByLabel('levels item 2', { exact: true }).press('Enter');
    expect((await sent(page, 'four levels', (p) => JSON.stringify(p['levels']) === '[0.5,0.75,0.5,0.5]'))['levels']).toEqual([0.5, 0.75, 0.5, 0.5]);
    await page.getByRole('button', { name: 'remove levels item 4' }).click();
    await page.getByRole('button', { name: 'remove levels item 3' }).click();
    await sent(page, 'two levels', (p) => JSON.stringify(p['levels']) === '[0.5,0.75]');
    expect(await add.isDisabled()).toBe(false);

    // The colour: the hex text and the picker stay in step; the value is sent as typed.
    const hex = page.getByLabel('tint hex', { exact: true });
    expect(await hex.inputValue()).toBe('#336699');
    await hex.fill('#ff4000');
    await hex.press('Enter');
    await sent(page, 'tint #ff4000', (p) => p['tint'] === '#ff4000');
    expect(await page.getByLabel('tint', { exact: true }).inputValue()).toBe('#ff4000');
    await hex.fill('orange');
    expect(await hex.evaluate((el) => el.classList.contains('item-invalid'))).toBe(true);
    expect(urlParams(page)['tint']).toBe('#ff4000');

    // The number choice is sent as a number, not as text.
    await page.locator('[data-param=factor] select').selectOption({ label: '4' });
    expect((await sent(page, 'factor 4', (p) => p['factor'] === 4))['factor']).toBe(4);

    // The optional seed starts unset (not sent), can be set and edited, and unset again.
    const setSeed = page.getByRole('switch', { name: 'set seed' });
    expect(await setSeed.isChecked()).toBe(false);
    expect('seed' in urlParams(page)).toBe(false);
    expect(await page.locator('[data-param=seed] input.num').isDisabled()).toBe(true);
    await setSeed.check();
    await sent(page, 'seed 0', (p) => p['seed'] === 0);
    await page.locator('[data-param=seed] input.num').fill('7');
    await page.locator('[data-param=seed] input.num').press('Enter');
    await sent(page, 'seed 7', (p) => p['seed'] === 7);
    await shot(page, 'param-controls-set');
    await setSeed.uncheck();
    await sent(page, 'no seed', (p) => !('seed' in p));
    expect(urlParams(page)).toEqual({ axis: [2.5, 0, 1], levels: [0.5, 0.75], tint: '#ff4000', factor: 4 });
    await shot(page, 'param-controls');
    await page.locator('[data-testid=params]').screenshot({ path: path.join(SHOTS_DIR, 'param-controls-panel.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens with the URL values in every control', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const params = { axis: [1, 2, 3], levels: [0.1, 0.2, 0.3], tint: '#00aa55', factor: 1, seed: 3 };
    await page.goto(`${host.url}/${viewerQuery({ specimen: 'rich-triangle', room: room(), params })}`);
    await page.waitForSelector('[data-param=levels] .list-row');
    expect(await waitForState(page, JOB, [...SETTLED, 'error'])).not.toBe('error');
    expect(await Promise.all(['x', 'y', 'z'].map((c) => page.getByLabel(`axis ${c}`, { exact: true }).inputValue()))).toEqual(['1', '2', '3']);
    expect(await page.locator('[data-param=levels] .list-row').count()).toBe(3);
    expect(await page.getByLabel('tint', { exact: true }).inputValue()).toBe('#00aa55');
    expect(await page.locator('[data-param=factor] select').inputValue()).toBe('1');
    expect(await page.getByRole('switch', { name: 'set seed' }).isChecked()).toBe(true);
    expect(await page.locator('[data-param=seed] input.num').inputValue()).toBe('3');
    await page.close();
  });
});
