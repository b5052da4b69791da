/**
 * The build error bar of a page opened after the failure: under `vitrine dev`, a page opened
 * once a plugin has failed to build (at start, or on a later save) shows that plugin's errors,
 * with file, line and column, as a page open at the time does; the bar names every plugin that
 * still fails and goes once each builds again, on pages open then and on pages opened later.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { DRAW_SCALE, openPage, shot } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';

const source = (name: string, param: string) => `import type { MeshResult } from 'vitrine';
/** A triangle. */
export function ${name}_mesh(${param}): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]), indices: new Uint32Array([0, 1, 2]) };
}
export const specimens = [{ id: '${name}', function: '${name}_mesh', display_name: '${name}' }];
`;
const GOOD = 'size = 1';
/** A parameter type no schema has: the plugin does not build. */
const BROKEN = 'size: Date';

const BAR = '[data-testid=build-error]';
let root: string;
let dev: RunningHost;
let browser: Browser;
const contexts: BrowserContext[] = [];
const file = (name: string) => path.join(root, 'plugins', name, 'index.ts');

/** Saves plugin `name` and waits until the host has answered it with `event`. */
async function save(name: string, param: string, event: 'reload' | 'build-error'): Promise<void> {
  const stream = await openStream(`${dev.url}/api/events`);
  try {
    const from = (await stream.next((e) => e.event === 'hello'), stream.events.length);
    writeFileSync(file(name), source(name, param));
    await stream.next((e) => e.event === event && (e.data as { plugin?: string }).plugin === name, from);
  } finally {
    stream.close();
  }
}

/** The bar's text, or null while it is hidden. */
async function barOf(page: Page): Promise<string | null> {
  return page.evaluate((selector) => {
    const bar = document.querySelector<HTMLElement>(selector);
    return bar && !bar.hidden ? bar.textContent : null;
  }, BAR);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'vitrine-build-error-'));
  for (const [name, param] of [['alpha', GOOD], ['gamma', BROKEN]] as const) {
    mkdirSync(path.dirname(file(name)), { recursive: true });
    writeFileSync(file(name), source(name, param));
  }
  [dev, browser] = await Promise.all([
    spawnHost(['plugins', '--port', '0', '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'], { cwd: root, command: 'dev' }),
    fileBrowser(DRAW_SCALE),
  ]);
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
});

describe('the build error bar on a page opened after the failure', () => {
  it('shows a failure from the start, then a later one, until each plugin builds again', async () => {
    // gamma has failed since the host started: a page opened now says so.
    const { page: first } = await openPage(browser, contexts, `${dev.url}/`);
    await first.waitForSelector(`${BAR}:not([hidden])`);
    expect(await first.textContent(BAR)).toMatch(/gamma does not build/);
    expect(await first.textContent(BAR)).toMatch(/plugins\/gamma\/index\.ts:3:\d+ error VITRINE_SCHEMA_100/);

    // alpha fails on a save: a page opened afterwards shows it first, and counts gamma.
    await save('alpha', BROKEN, 'build-error');
    const { page: late } = await openPage(browser, contexts, `${dev.url}/`);
    await late.waitForSelector(`${BAR}[data-plugin=alpha]:not([hidden])`);
    const text = await late.textContent(BAR);
    expect(text).toMatch(/alpha does not build/);
    expect(text).toMatch(/plugins\/alpha\/index\.ts:3:\d+ error VITRINE_SCHEMA_100/);
    expect(text).toMatch(/1 more plugin failed/);
    await shot(late, 'build-error-opened-late');

    // alpha builds again: the open page goes back to gamma's errors, as does a page opened now.
    // A page opened now is the first page's tab loading the viewer again: a new document, the
    // app started afresh on what the host says, as in a new window (where a context of its own
    // cost Chromium a renderer and a cold start more).
    await save('alpha', GOOD, 'reload');
    await late.waitForSelector(`${BAR}[data-plugin=gamma]:not([hidden])`);
    const after = first;
    await after.goto(`${dev.url}/`);
    await after.waitForSelector(`${BAR}[data-plugin=gamma]:not([hidden])`);
    expect(await after.textContent(BAR)).not.toMatch(/alpha|more plugin/);

    // Every plugin builds: the open page's bar goes, and a page opened now shows none.
    await save('gamma', GOOD, 'reload');
    await late.waitForSelector(BAR, { state: 'hidden' });
    const clean = after;
    await clean.goto(`${dev.url}/?specimen=gamma`);
    // By the time its mesh is drawn, the page has long had the host stream's opening events.
    await clean.waitForSelector('[data-testid=stats] [data-stat=triangles] dd');
    expect(await barOf(clean)).toBeNull();
    await shot(clean, 'build-error-gone');
  });
});
