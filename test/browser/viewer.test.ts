/**
 * The web viewer in a real Chromium against a real host process: the catalog, a dynamic
 * specimen's parameter panel driving new requests, progress and cancellation of a slow job,
 * a second window on the same URL served from the room cache, errors from the host, and each
 * kind of result drawn with WebGL. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Browser, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type VitrineClient } from '../../core/client/index.ts';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { DRAW_SCALE, framesDrawn, launchBrowser, shot, textOf, waitForFrame, waitForState, waitForText } from './browser-session.ts';
import { FilePage } from './file-page.ts';
import { fileBrowser } from './fork-browser.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: HostProcess;
let browser: Browser;
let client: VitrineClient;
// Each case loads its URL into the same page (file-page.ts); a second window is a page of its own.
let windows: FilePage[];

beforeAll(async () => {
  [host, browser] = await Promise.all([startHost(), fileBrowser(DRAW_SCALE)]);
  client = createClient({ baseUrl: host.baseUrl });
  windows = [0, 1].map(() => new FilePage(browser, { viewport: { width: 1280, height: 800 } }));
});

afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** Loads the viewer at `query` into window `which` (0, or 1 for a second window). */
async function open(query = '', which = 0): Promise<Page> {
  const { page, errors } = await windows[which]!.open(`${host.baseUrl}/${query}`);
  // A script error would leave the page half-built; fail with it rather than time out later.
  await page.waitForSelector('.topbar', { timeout: STATE_WAIT_MS }).catch((e: unknown) => {
    throw new Error(`the viewer did not start: ${errors.join('; ') || String(e)}`);
  });
  return page;
}

function url(specimen: string, room: string, params?: Record<string, unknown>): string {
  return viewerQuery({ specimen, room, ...(params ? { params } : {}) });
}

const JOB = '[data-testid=job-state]';
// A drag or a typed value can ask twice for the same values (the debounced input, then the
// change on release); when the first finished before the second, the second is a room cache hit.
const SETTLED = ['done', 'cached'];
const stat = (key: string): string => `[data-testid=stats] [data-stat=${key}] dd`;

describe('the web viewer', () => {
  it('shows the catalog with thumbnails, badges and a filter', async () => {
    const page = await open();
    await page.waitForSelector('[data-testid=catalog] .tile[data-id=shape]');
    const ids = await page.locator('[data-testid=catalog] .tile').evaluateAll((tiles) => tiles.map((t) => (t as HTMLElement).dataset.id));
    expect(ids).toEqual(expect.arrayContaining(['shape', 'slow-sphere', 'density', 'galaxy', 'pattern', 'broken', 'cube']));
    expect(await textOf(page, '.tile[data-id=cube] .badge')).toBe('static');
    expect(await textOf(page, '.tile[data-id=shape] .badge')).toBe('dynamic');
    expect(await textOf(page, '.tile[data-id=shape] .tile-name')).toBe('Parametric shape');
    // Every thumbnail actually loaded as an image (at once: a page with no subject has no picture to wait for).
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.tile img')].every((i) => i.src && i.complete));
    expect(await page.locator('[data-testid=catalog]').getAttribute('data-thumbnails')).toBe('ready');
    const widths = await page.locator('.tile img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
    expect(widths.every((w) => w > 0)).toBe(true);
    expect(await textOf(page, '[data-testid=stage-message] h3')).toBe('Choose a specimen');
    await shot(page, 'catalog');

    await page.fill('[data-testid=filter]', 'points');
    await waitForText(page, '[data-testid=catalog-count]', `1 of ${ids.length}`);
    expect(await page.locator('[data-testid=catalog] .tile').count()).toBe(1);
    expect(await page.locator('[data-testid=catalog] .tile').getAttribute('data-id')).toBe('galaxy');
  });

  it('opens a dynamic specimen; moving a slider requests and draws a new mesh', async () => {
    const page = await open(viewerQuery({ room: room() }));
    await page.click('.tile[data-id=shape]');
    await waitForState(page, JOB, ['done']);
    await waitForText(page, stat('triangles'), '512');
    // The schema became the right controls.
    expect(await page.locator('[data-param=segments] input[type=range]').getAttribute('max')).toBe('64');
    expect(await page.locator('[data-param=segments] input[type=range]').getAttribute('step')).toBe('1');
    expect(await page.locator('[data-param=kind] select option').allTextContents()).toEqual(['sphere', 'torus']);
    expect(await page.locator('[data-param=smooth] input[type=checkbox]').isChecked()).toBe(true);
    expect(await page.locator('[data-param=label] input[type=text]').inputValue()).toBe('vitrine');
    expect(await textOf(page, '[data-param=segments] .field-hint')).toContain('2 × segments² triangles');
    await page.waitForFunction(() => document.querySelector('[data-testid=stage-message]')?.getAttribute('data-kind') === 'none');
    const before = await page.locator('canvas.stage-canvas').screenshot();
    await shot(page, 'shape-default');

    // Drag the segments slider all the way left with the mouse: input events while dragging
    // (debounced), change on release; the latest value wins.
    const slider = page.locator('[data-param=segments] input[type=range]');
    // The side panel may reach below the window (the layer list's session buttons): the mouse needs the slider in view.
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    if (!box) throw new Error('segments slider has no box');
    const frames = await framesDrawn(page);
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width * (0.2 - i * 0.03), box.y + box.height / 2);
    await page.mouse.up();
    await waitForText(page, stat('triangles'), String(2 * 3 * 3));
    expect(await page.locator('[data-param=segments] input[type=number]').inputValue()).toBe('3');
    await waitForState(page, JOB, SETTLED);
    await waitForFrame(page, frames);
    const after = await page.locator('canvas.stage-canvas').screenshot();
    expect(after.equals(before)).toBe(false);
    expect(new URL(page.url()).searchParams.get('params')).toContain('"segments":3');
    await shot(page, 'shape-segments-3');

    // The dropdown and the number field are requests too.
    await page.selectOption('[data-param=kind] select', { label: 'torus' });
    await page.fill('[data-param=segments] input[type=number]', '10');
    await page.press('[data-param=segments] input[type=number]', 'Enter');
    await waitForText(page, stat('triangles'), '200');
    await waitForState(page, JOB, SETTLED);
    await shot(page, 'torus-10');

    // Quick successive edits: each aborts the one before; only the last value's mesh stays.
    for (const value of ['20', '30', '40', '50']) {
      await page.fill('[data-param=segments] input[type=number]', value);
      await page.press('[data-param=segments] input[type=number]', 'Enter');
    }
    await waitForText(page, stat('triangles'), '5,000'); // 2 × 50²
    await waitForState(page, JOB, SETTLED);
    expect(new URL(page.url()).searchParams.get('params')).toContain('"segments":50');
  });

  it('runs a slow specimen as a job with progress, and cancels it', async () => {
    const r = room();
    const page = await open(url('slow-sphere', r, { steps: 300, step_ms: 100 }));
    await waitForState(page, JOB, ['running']);
    await page.waitForSelector('[data-testid=progress-log] li[data-seq="1"]');
    const progressText = await textOf(page, '[data-testid=progress-text]');
    expect(progressText).toMatch(/^step \d+ of 300$/);
    expect(await page.locator('[data-testid=stage-message] .pill').count()).toBe(1);
    await shot(page, 'slow-running');
    const jobId = await textOf(page, '[data-testid=job-id]');
    await page.click('[data-testid=cancel]');
    await waitForState(page, JOB, ['cancelled']);
    expect(await page.locator('[data-testid=cancel]').isDisabled()).toBe(true);
    await shot(page, 'slow-cancelled');
    // On the host, the job really ended as cancelled.
    const progress = await waitFor(async () => {
      const body = await client.progress(jobId);
      return body.status === 'running' ? undefined : body;
    }, `job ${jobId} to end on the host`);
    expect(progress).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(progress.messages.length).toBeLessThan(300);
  });

  it('a second window on the same URL shows the same result from the room cache', async () => {
    const r = room();
    const first = await open(url('shape', r, { segments: 12, kind: 'torus' }));
    expect(await waitForState(first, JOB, ['done', 'cached'])).toBe('done');
    await waitForText(first, stat('triangles'), '288');
    const shared = first.url();
    expect(shared).toContain(encodeURIComponent(r));

    const second = await open(new URL(shared).search, 1);
    expect(await waitForState(second, JOB, ['done', 'cached'])).toBe('cached');
    await waitForText(second, stat('triangles'), '288');
    expect(await textOf(second, stat('vertices'))).toBe(await textOf(first, stat('vertices')));
    expect(await second.locator('[data-param=kind] select').inputValue()).toBe('"torus"');
    expect(await second.locator('[data-testid=room]').inputValue()).toBe(r);
    await shot(second, 'second-window-cached');
    await windows[1]!.close();
    // One computation: the room holds one entry, created by the first window's job; the rest
    // were hits (first window's /data, second window's /start and /data).
    const entries = (await client.cacheStats()).entries.filter((e) => e.room_id === r);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ function_name: 'shape', access_count: 4 });
  });

  it('changing the room asks that room, and the URL follows', async () => {
    const [a, b] = [room(), room()];
    const page = await open(url('shape', a, { segments: 7 }));
    expect(await waitForState(page, JOB, ['done', 'cached'])).toBe('done');
    await page.fill('[data-testid=room]', b);
    await page.press('[data-testid=room]', 'Enter');
    await page.waitForURL((u) => u.searchParams.get('room') === b);
    // A different room has its own cache slot: computed again, not served from room a.
    await page.waitForFunction(() => document.querySelector('[data-testid=job-id]')?.textContent !== '');
    expect(await waitForState(page, JOB, ['done', 'cached'])).toBe('done');
    await waitForText(page, stat('triangles'), '98');
    const rooms = (await client.cacheStats()).entries.map((e) => e.room_id);
    expect(rooms).toEqual(expect.arrayContaining([a, b]));
  });

  it('explains invalid input inline and shows the host error for it', async () => {
    const page = await open(url('shape', room(), { segments: 999 }));
    await waitForState(page, JOB, ['error']);
    const hostError = await textOf(page, '[data-testid=host-error]');
    expect(hostError).toContain('segments');
    expect(hostError).toContain('64');
    expect(await textOf(page, '[data-param=segments] .field-error')).toBe('segments must be at most 64');
    expect(await page.getAttribute('[data-testid=stage-message]', 'data-kind')).toBe('error');
    expect(await textOf(page, '[data-testid=stage-message] h3')).toBe('Invalid parameters');
    await shot(page, 'invalid-params');

    // Fixing the value clears both and draws the mesh.
    await page.fill('[data-param=segments] input[type=number]', '4');
    await page.press('[data-param=segments] input[type=number]', 'Enter');
    await waitForText(page, stat('triangles'), '32');
    expect(await page.locator('[data-testid=host-error]').isHidden()).toBe(true);
    expect(await textOf(page, '[data-param=segments] .field-error')).toBe('');
  });

  it('shows a failing function as an error, not a blank canvas', async () => {
    const page = await open(url('broken', room()));
    await waitForState(page, JOB, ['error']);
    expect(await page.getAttribute('[data-testid=stage-message]', 'data-kind')).toBe('error');
    expect(await textOf(page, '[data-testid=stage-message] .detail')).toContain('the fixture failed on purpose');
    await shot(page, 'broken');
  });

  it('draws a volume as slices whose sliders move', async () => {
    const page = await open(url('density', room(), { size: 24 }));
    await waitForState(page, JOB, ['done']);
    await waitForText(page, stat('shape'), '24 × 24 × 24');
    await page.waitForSelector('[data-testid=slice-panel] input[data-axis=z]');
    const frames = await framesDrawn(page);
    const before = await page.locator('canvas.stage-canvas').screenshot();
    await page.focus('[data-testid=slice-panel] input[data-axis=z]');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    await waitForText(page, '[data-testid=slice-panel] .slice-row:nth-of-type(3) output', '18');
    await waitForFrame(page, frames);
    const after = await page.locator('canvas.stage-canvas').screenshot();
    expect(after.equals(before)).toBe(false);
    await shot(page, 'volume');
  });

  it('draws a volume whole by ray marching, its opacity changing the picture', async () => {
    const page = await open(url('density', room(), { size: 32 }));
    const consoleErrors: string[] = [];
    const onConsole = (message: ConsoleMessage): void => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    };
    page.on('console', onConsole);
    await waitForState(page, JOB, ['done']);
    await page.waitForSelector('[data-testid=slice-panel] select[data-axis=view]');
    const slices = await page.locator('canvas.stage-canvas').screenshot();
    let frames = await framesDrawn(page);
    await page.selectOption('[data-testid=slice-panel] select[data-axis=view]', 'volume');
    await waitForFrame(page, frames);
    await waitForText(page, '[data-testid=slice-panel] .slice-title', 'Volume');
    expect(await page.locator('[data-testid=slice-panel] input[data-axis=z]').isHidden()).toBe(true);
    const thin = await page.locator('canvas.stage-canvas').screenshot();
    expect(thin.equals(slices)).toBe(false);
    frames = await framesDrawn(page);
    await page.locator('[data-testid=slice-panel] input[data-axis=opacity]').fill('1');
    await waitForFrame(page, frames);
    const dense = await page.locator('canvas.stage-canvas').screenshot();
    expect(dense.equals(thin)).toBe(false);
    // A shader that does not compile is only reported on the console (the box stays empty).
    expect(consoleErrors).toEqual([]);
    await shot(page, 'volume-raymarched');
    page.off('console', onConsole);
  });

  it('draws point clouds, images and static mesh files', async () => {
    const page = await open(url('galaxy', room(), { count: 2500 }));
    await waitForState(page, JOB, ['done']);
    await waitForText(page, stat('points'), '2,500');
    await shot(page, 'points');

    await page.click('.tile[data-id=pattern]');
    await waitForText(page, stat('size'), '96 × 64');
    await waitForState(page, JOB, ['done']);
    await shot(page, 'image');

    await page.click('.tile[data-id=cube]');
    await waitForText(page, stat('triangles'), '12');
    expect(await textOf(page, stat('file'))).toBe('cube.obj');
    expect(await page.locator('[data-testid=params]').isHidden()).toBe(true);
    await shot(page, 'static-obj');
  });

  it('says so when WebGL is unavailable', async () => {
    const noGl = await launchBrowser(['--disable-webgl', '--disable-3d-apis']);
    try {
      const page = await noGl.newPage({ viewport: { width: 1200, height: 800 } });
      await page.goto(`${host.baseUrl}/${url('shape', room(), { segments: 5 })}`);
      await waitForState(page, JOB, ['done']);
      expect(await textOf(page, '[data-testid=stage-message] h3')).toBe('WebGL is not available');
      // Counts still arrive.
      await waitForText(page, stat('triangles'), '50');
      await shot(page, 'no-webgl');
    } finally {
      await noGl.close();
    }
  });
});
