/**
 * @module vr.bench
 * The viewer in VR under Meta's IWER (an emulated Quest 3) in Debian's Chromium with
 * SwiftShader, software WebGL: a floor, not a headset figure. For a 300k-triangle mesh and a
 * 128³ float32 volume drawn by ray marching: the time from pressing "Enter VR" to the first
 * session frame with the specimen on the table, and the intervals between session frames
 * (median and 95th percentile over FRAMES frames, read from the page's `window.vitrineVr`);
 * and the same around a 2-triangle mesh, the cost of the session itself.
 */
import type { Page } from 'playwright-core';
import { installEmulatedHeadset, launchBrowser } from '../browser/browser-session.ts';
import { fmt, percentile, startBenchHost } from './host-helpers.ts';

const FRAMES = 20;

interface Measured {
  firstSpecimenFrameMs: number;
  frameTimes: number[];
  framebuffer: [number, number] | null;
}

async function measure(page: Page, url: string, prepare: (page: Page) => Promise<void>): Promise<Measured> {
  await page.goto(url);
  await page.waitForFunction(() => ['done', 'cached'].includes(document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state ?? ''), null, {
    timeout: 300_000,
  });
  await prepare(page);
  await page.getByRole('button', { name: 'Enter VR' }).click();
  await page.waitForFunction(() => window.vitrineVr?.state().firstSpecimenFrameMs != null, null, { timeout: 300_000 });
  const start = (await page.evaluate(() => window.vitrineVr!.state().frames)) as number;
  await page.waitForFunction((n) => window.vitrineVr!.state().frames >= n, start + FRAMES + 1, { timeout: 600_000, polling: 200 });
  const state = await page.evaluate(() => window.vitrineVr!.state());
  await page.evaluate(() => (window as unknown as { xrDevice: { activeSession?: { end(): Promise<void> } } }).xrDevice.activeSession?.end());
  return { firstSpecimenFrameMs: state.firstSpecimenFrameMs!, frameTimes: state.frameTimes.slice(-FRAMES), framebuffer: state.framebuffer };
}

function line(what: string, m: Measured): string {
  const fps = 1000 / percentile(m.frameTimes, 50);
  return `${what}: Enter VR → first frame with the specimen ${fmt(m.firstSpecimenFrameMs, 0)} ms; frame time median ` +
    `${fmt(percentile(m.frameTimes, 50), 1)} ms (${fmt(fps, 1)} fps), p95 ${fmt(percentile(m.frameTimes, 95), 1)} ms over ${m.frameTimes.length} ` +
    `frames of ${m.framebuffer?.join('×') ?? '?'} pixels`;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const [host, browser] = await Promise.all([startBenchHost(), launchBrowser()]);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await installEmulatedHeadset(page, true);
    const link = (specimen: string, params: object) => `${host.url}/?${new URLSearchParams({ specimen, params: JSON.stringify(params) }).toString()}`;
    // The same session around a 2-triangle mesh: what IWER, SwiftShader, the panel and the hands cost alone.
    const floor = await measure(page, link('grid_mesh', { triangles: 2 }), async () => {});
    const mesh = await measure(page, link('grid_mesh', { triangles: 300_000 }), async () => {});
    const volume = await measure(page, link('float_volume', { megabytes: 8 }), async (p) => {
      await p.selectOption('select[data-axis=view]', 'volume');
    });
    return {
      name: 'The viewer in VR (IWER Quest 3, Chromium + SwiftShader: a floor, not a headset figure)',
      lines: [
        line('2-triangle mesh (the session alone)', floor),
        line('300k-triangle mesh (grid_mesh)', mesh),
        line('128³ float32 volume, ray marched (float_volume 8 MiB)', volume),
      ],
    };
  } finally {
    await browser.close();
    await host.stop('SIGTERM');
  }
}
