/**
 * The viewer's input controls: a specimen whose function takes a mesh input shows a picker of
 * the catalog's meshes and a drop zone; a file chosen there is uploaded, selected and the
 * result drawn; picking another specimen recomputes. Screenshots go to the shots folder.
 */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { DRAW_SCALE, shot, textOf, waitForText } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

let host: RunningHost;
let browser: Browser;

beforeAll(async () => {
  [host, browser] = await Promise.all([
    spawnHost(['--port', '0', '--plugins', join(REPO, 'build/out'), '--specimens', join(REPO, 'specimens'), '--pool-size', '1']),
    fileBrowser(DRAW_SCALE),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await host?.stop();
});

describe('input parameters in the viewer', () => {
  it('picks a compatible specimen, or uploads a dropped file and selects it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${host.url}/?specimen=smoothed-mesh`);
    const picker = '[data-testid=input-picker-mesh]';
    await page.waitForSelector(`${picker} option[value="specimen:trefoil-knot"]`, { state: 'attached', timeout: STATE_WAIT_MS });
    const options = await page.locator(`${picker} option`).evaluateAll((items) => items.map((o) => (o as HTMLOptionElement).value));
    // Meshes only: static and dynamic ones; no volume, point cloud or image.
    expect(options).toEqual(expect.arrayContaining(['specimen:cinquefoil-knot', 'specimen:trefoil-knot', 'specimen:torus']));
    expect(options).not.toContain('specimen:ct-head-phantom');
    expect(options).not.toContain('specimen:spiral-galaxy');
    expect(await page.locator(picker).inputValue()).toBe('specimen:cinquefoil-knot');
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '19,200');

    await page.selectOption(picker, 'specimen:trefoil-knot');
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '7,680');

    const stl = join(tmpdir(), `vitrine-cube-${process.pid}.stl`);
    await writeFile(stl, binaryStl());
    await page.setInputFiles('[data-testid=input-file-mesh]', stl);
    await waitForText(page, '[data-testid=stats] [data-stat=triangles] dd', '12');
    expect(await page.locator(picker).inputValue()).toMatch(/^upload:[0-9a-f]{32}$/);
    expect(await textOf(page, `${picker} option:checked`)).toContain('.stl (uploaded)');
    await shot(page, 'input-upload-selected');

    // A file of the wrong kind is refused with the host's reason, and the selection stays.
    const bad = join(tmpdir(), `vitrine-bad-${process.pid}.stl`);
    await writeFile(bad, binaryStl().subarray(0, 100));
    await page.setInputFiles('[data-testid=input-file-mesh]', bad);
    await waitForText(
      page,
      '[data-param=mesh] .field-error',
      `mesh: '${bad.split('/').pop()}' does not parse: the binary STL declares 12 triangles (684 bytes) but the file holds 100 bytes`,
    );
    expect(await page.locator(picker).inputValue()).toMatch(/^upload:/);
    await shot(page, 'input-upload-refused');
    await page.close();
  }, 120_000);
});
