/**
 * The viewer's tools for reading data, in a real Chromium against a real host on the example
 * CT phantom and galaxy files plus the viewer fixture plugins: the volume colour bar with a
 * window from the histogram (the phantom's inside is not one flat colour, in slices and ray
 * marched), colour maps, the value under the cursor, reset camera; point clouds in their own
 * colours (the galaxy's pink stars show) or by scalar; each specimen's mesh colour (declared,
 * or from its thumbnail). Pixels are read only where the picture is the point (the panel's
 * own tools are in panel-tools.test.ts). Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATIC_CUBE_OBJ } from '../client/host-process.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { REPO } from '../helpers/cli-path.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { shot, waitForState } from './browser-session.ts';
import { FilePage, type LoadedPage } from './file-page.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: RunningHost;
let browser: Browser;
let pluginsDir: string;
let specimensDir: string;
/** Each case loads its links into this one page (file-page.ts). */
let tab: FilePage;

/** The declared colour of the `red-cube` specimen. */
const RED = '#d9534f';

beforeAll(async () => {
  specimensDir = await mkdtemp(path.join(tmpdir(), 'vitrine-data-tools-'));
  for (const id of ['ct-head-phantom', 'two-arm-galaxy']) await cp(path.join(REPO, 'specimens', id), path.join(specimensDir, id), { recursive: true });
  await mkdir(path.join(specimensDir, 'red-cube'));
  await writeFile(path.join(specimensDir, 'red-cube', 'cube.obj'), STATIC_CUBE_OBJ);
  await writeFile(path.join(specimensDir, 'red-cube', 'specimen.json'), JSON.stringify({ id: 'red-cube', type: 'mesh', data_file: 'cube.obj', color: RED }));
  await writeTwelveBitPhantom(path.join(specimensDir, 'ct-head-phantom-12bit'));
  [pluginsDir, browser] = await Promise.all([builtFixture('browser-plugins'), fileBrowser()]);
  host = await spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', pluginsDir, '--specimens', specimensDir]);
  tab = new FilePage(browser, { viewport: { width: 1440, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
  await rm(specimensDir, { recursive: true, force: true });
});

const JOB = '[data-testid=job-state]';

/** The example phantom stretched to 12 bits (uint16 samples over 0..4095), as a scanner writes it. */
async function writeTwelveBitPhantom(dir: string): Promise<void> {
  const source = path.join(REPO, 'specimens', 'ct-head-phantom');
  const file = await readFile(path.join(source, 'head-phantom.npy'));
  const bytes = file.subarray(10 + file.readUInt16LE(8));
  const samples = new Uint16Array(bytes.length);
  for (let i = 0; i < bytes.length; i++) samples[i] = Math.round((bytes[i]! / 222) * 4095);
  let header = "{'descr': '<u2', 'fortran_order': False, 'shape': (64, 64, 64), }";
  header = header.padEnd(128 - 10 - 1) + '\n';
  const preamble = Buffer.alloc(10);
  preamble.write('\x93NUMPY', 0, 'latin1');
  preamble.writeUInt8(1, 6);
  preamble.writeUInt16LE(header.length, 8);
  await mkdir(dir);
  await writeFile(path.join(dir, 'head-phantom.npy'), Buffer.concat([preamble, Buffer.from(header, 'latin1'), Buffer.from(samples.buffer)]));
  await cp(path.join(source, 'head-phantom.json'), path.join(dir, 'head-phantom.json'));
  await writeFile(path.join(dir, 'specimen.json'), JSON.stringify({ id: 'ct-head-phantom-12bit', type: 'volume', data_file: 'head-phantom.npy' }));
}

const open = (query: string): Promise<LoadedPage> => tab.open(`${host.url}/${query}`);

const link = (specimen: string, params?: Record<string, unknown>, extra: Record<string, string> = {}): string =>
  viewerQuery({ specimen, room: room(), ...(params ? { params } : {}), extra });

/** The stage's pixels (RGBA) as the user sees them. */
async function stagePixels(page: Page): Promise<PNG> {
  return PNG.sync.read(await page.locator('canvas.stage-canvas').screenshot());
}

/** Distinct colours (quantised to 16 levels a channel) covering at least 1% of the non-background pixels in the middle of the stage. */
function distinctColours(png: PNG): number {
  const counts = new Map<number, number>();
  let total = 0;
  for (let y = Math.floor(png.height * 0.3); y < png.height * 0.7; y++) {
    for (let x = Math.floor(png.width * 0.3); x < png.width * 0.7; x++) {
      const i = (y * png.width + x) * 4;
      const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
      if (r + g + b < 60) continue; // the dark stage background
      const key = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      total++;
    }
  }
  return [...counts.values()].filter((n) => n >= total / 100).length;
}

/**
 * How much structure the stage shows where the volume is drawn (pixels brighter than the dark
 * background): the spread of brightness, and the mean brightness step between neighbouring
 * pixels (edges). A flat or blurred fog scores low on both.
 */
function structure(png: PNG): { spread: number; edges: number; covered: number } {
  const lum = (i: number): number => 0.2126 * png.data[i]! + 0.7152 * png.data[i + 1]! + 0.0722 * png.data[i + 2]!;
  const values: number[] = [];
  let steps = 0;
  let stepSum = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width - 1; x++) {
      const i = (y * png.width + x) * 4;
      const a = lum(i);
      const b = lum(i + 4);
      if (a < 30 || b < 30) continue;
      values.push(a);
      stepSum += Math.abs(a - b);
      steps++;
    }
  }
  const mean = values.reduce((t, v) => t + v, 0) / (values.length || 1);
  const spread = Math.sqrt(values.reduce((t, v) => t + (v - mean) ** 2, 0) / (values.length || 1));
  return { spread, edges: stepSum / (steps || 1), covered: values.length / (png.width * png.height) };
}

/** Pixels that read as pink (the galaxy's star-forming regions: 255, 110, 170). */
function pinkPixels(png: PNG): number {
  let n = 0;
  for (let i = 0; i < png.data.length; i += 4) {
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r > 150 && b > g + 25 && r > b + 25 && g < r - 50) n++;
  }
  return n;
}

/** Share of pixels that differ between two pictures of the same size. */
function changed(a: PNG, b: PNG): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i]! - b.data[i]!) + Math.abs(a.data[i + 1]! - b.data[i + 1]!) + Math.abs(a.data[i + 2]! - b.data[i + 2]!) > 24) n++;
  }
  return n / (a.data.length / 4);
}

async function select(page: Page, selector: string, value: string): Promise<void> {
  await page.selectOption(selector, value);
}

describe('reading volumes', () => {
  it('opens the CT phantom with a window from its histogram, so its inside shows in slices and ray marched', async () => {
    const { page, errors } = await open(link('ct-head-phantom'));
    await waitForState(page, JOB, ['done']);
    const bar = page.locator('[data-testid=colour-bar]');
    await bar.waitFor();
    // The phantom holds 0..222; the 1st-99th percentile window is narrower than that.
    const low = Number(await bar.getAttribute('data-low'));
    const high = Number(await bar.getAttribute('data-high'));
    expect(low).toBeGreaterThan(0);
    expect(high).toBeLessThan(222);
    expect(high).toBeGreaterThan(low);
    expect(await page.locator('[data-testid=window-high]').textContent()).toBe(String(Number(high.toPrecision(4))));
    const slices = await stagePixels(page);
    expect(distinctColours(slices)).toBeGreaterThanOrEqual(4);
    await shot(page, 'data-tools-phantom-slices');

    // The value under the cursor: the middle of the stage is on the slices through the middle.
    const canvas = (await page.locator('canvas.stage-canvas').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=value-readout]')?.dataset.value);
    expect(await page.locator('[data-testid=value-readout]').textContent()).toMatch(/^\d+(\.\d+)? at x \d+, y \d+, z \d+$/);
    await page.mouse.move(canvas.x + 5, canvas.y + 5);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('[data-testid=value-readout]')?.dataset.value === '');

    // Another colour map and a narrower window change the picture and the bar.
    const before = await page.locator('[data-testid=colour-bar-gradient]').getAttribute('style');
    await select(page, '[data-testid=colour-map]', 'gray');
    expect(await page.locator('[data-testid=colour-bar-gradient]').getAttribute('style')).not.toBe(before);
    await page.locator('[data-testid=width]').fill('300');
    expect(Number(await bar.getAttribute('data-high')) - Number(await bar.getAttribute('data-low'))).toBeLessThan(high - low);
    expect(changed(slices, await stagePixels(page))).toBeGreaterThan(0.01);
    await page.click('[data-testid=window-auto]');
    expect(Number(await bar.getAttribute('data-low'))).toBeCloseTo(low, 6);

    // Ray marched whole: not one flat colour either.
    await select(page, '[data-axis=view]', 'volume');
    await page.waitForFunction(() => document.querySelector('.slice-title')?.textContent === 'Volume');
    expect(distinctColours(await stagePixels(page))).toBeGreaterThanOrEqual(4);
    await shot(page, 'data-tools-phantom-volume');
    expect(errors).toEqual([]);
  });

  it('opens a 12-bit phantom on its inside and ray marches it with structure, not a fog', async () => {
    const { page, errors } = await open(link('ct-head-phantom-12bit'));
    await waitForState(page, JOB, ['done']);
    const bar = page.locator('[data-testid=colour-bar]');
    await bar.waitFor();
    // The window the viewer chose: inside 0..4095 and far narrower, past the air (about 220).
    const low = Number(await bar.getAttribute('data-low'));
    const high = Number(await bar.getAttribute('data-high'));
    expect(low).toBeGreaterThan(260);
    expect(high).toBeLessThan(4095);
    expect(high - low).toBeLessThan(4095 / 2);
    // Brain (about 980) and the brighter lesions (about 1330) take colours well apart.
    expect((1330 - 980) / (high - low)).toBeGreaterThan(0.15);
    await shot(page, 'data-tools-phantom-12bit-slices');
    expect(distinctColours(await stagePixels(page))).toBeGreaterThanOrEqual(5);

    await select(page, '[data-axis=view]', 'volume');
    await page.waitForFunction(() => document.querySelector('.slice-title')?.textContent === 'Volume');
    await shot(page, 'data-tools-phantom-12bit-volume');
    // Shaded boundaries, not a fog: bright and dark within the head, and sharp steps between neighbours.
    const marched = structure(await stagePixels(page));
    expect(marched.covered).toBeGreaterThan(0.05);
    expect(marched.spread).toBeGreaterThan(15);
    expect(marched.edges).toBeGreaterThan(5.5);
    expect(errors).toEqual([]);
  });

  it('puts the camera back with Reset camera', async () => {
    const { page } = await open(link('density', { size: 16 }));
    await waitForState(page, JOB, ['done', 'cached']);
    const framed = await stagePixels(page);
    const canvas = (await page.locator('canvas.stage-canvas').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
    await page.mouse.down();
    await page.mouse.move(canvas.x + canvas.width / 2 + 220, canvas.y + canvas.height / 2 + 60, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => changed(framed, await stagePixels(page)), { timeout: STATE_WAIT_MS }).toBeGreaterThan(0.02);
    await page.click('[data-testid=reset-camera]');
    await expect.poll(async () => changed(framed, await stagePixels(page)), { timeout: STATE_WAIT_MS }).toBeLessThan(0.005);
  });
});

describe('reading point clouds and meshes', () => {
  it('draws the galaxy file in its own colours: the pink star-forming regions show', async () => {
    const { page, errors } = await open(link('two-arm-galaxy'));
    await waitForState(page, JOB, ['done']);
    await page.locator('[data-testid=points-panel]').waitFor();
    expect(await page.locator('[data-testid=point-colouring]').inputValue()).toBe('own');
    expect(pinkPixels(await stagePixels(page))).toBeGreaterThan(100);
    await shot(page, 'data-tools-galaxy');
    // One colour: no pink left.
    await select(page, '[data-testid=point-colouring]', 'single');
    await expect.poll(async () => pinkPixels(await stagePixels(page)), { timeout: STATE_WAIT_MS }).toBe(0);
    expect(errors).toEqual([]);
  });

  it('colours a point cloud by its scalar with a colour bar, by default when it has no colours', async () => {
    const { page } = await open(link('galaxy', { colored: false }));
    await waitForState(page, JOB, ['done', 'cached']);
    expect(await page.locator('[data-testid=point-colouring]').inputValue()).toBe('scalar');
    expect(await page.locator('[data-testid=points-panel] [data-testid=colour-bar]').isVisible()).toBe(true);
    const { page: coloured } = await open(link('galaxy', { colored: true }));
    await waitForState(coloured, JOB, ['done', 'cached']);
    expect(await coloured.locator('[data-testid=point-colouring]').inputValue()).toBe('own');
    expect(await coloured.locator('[data-testid=points-panel] [data-testid=colour-bar]').isVisible()).toBe(false);
    const own = await stagePixels(coloured);
    await select(coloured, '[data-testid=point-colouring]', 'scalar');
    expect(await coloured.locator('[data-testid=points-panel] [data-testid=colour-bar]').isVisible()).toBe(true);
    await expect.poll(async () => changed(own, await stagePixels(coloured)), { timeout: STATE_WAIT_MS }).toBeGreaterThan(0.005);
  });

  it('draws each mesh in its specimen’s colour: declared, else its thumbnail’s', async () => {
    const colourOf = async (query: string): Promise<[number, number, number]> => {
      const { page } = await open(query);
      await waitForState(page, JOB, ['done', 'cached']);
      const hex = (await page.locator('[data-testid=stage]').getAttribute('data-mesh-colour')) ?? '';
      expect(hex).toMatch(/^#[0-9a-f]{6}$/);
      return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
    };
    const { page } = await open(link('red-cube'));
    await waitForState(page, JOB, ['done']);
    expect(await page.locator('[data-testid=stage]').getAttribute('data-mesh-colour')).toBe(RED);
    await shot(page, 'data-tools-red-cube');
    // The fixtures' thumbnails: a blue disc for `shape`, an orange one for `slow-sphere`.
    const [r1, , b1] = await colourOf(link('shape'));
    expect(b1).toBeGreaterThan(r1 + 60);
    const [r2, , b2] = await colourOf(link('slow-sphere', { steps: 1, step_ms: 0 }));
    expect(r2).toBeGreaterThan(b2 + 60);
  });
});
