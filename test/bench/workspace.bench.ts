/**
 * @module workspace.bench
 * A room as a shared workspace: the time from a notebook's `publish()` of a 256×256×128 uint16
 * numpy volume (16 MiB) to the first frame a page following the room draws of it, in Debian's
 * Chromium with SwiftShader (software WebGL: a floor, not a workstation figure). Each run is a
 * fresh Python process publishing a new specimen and showing it in room `lab`; the split says
 * how long publish() and show() took in Python, the rest is the page's stream event, catalog
 * read, download, decode and drawing. Then the shared view: a window change on a second
 * following page until the first shows it. Clocks: Python's and the pages' wall clocks, on one
 * machine.
 */
import { launchBrowser } from '../browser/browser-session.ts';
import { watchFirstFrame } from '../browser/first-frame.ts';
import { publishVolumeScript, runPython, type Published } from '../helpers/python-publish.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { viewerQuery } from '../helpers/room.ts';
import { benchSpecimens, fmt, percentile } from './host-helpers.ts';

const RUNS = 5;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const [host, browser] = await Promise.all([spawnHost(['--port', '0', '--specimens', benchSpecimens(), '--log-level', 'warn']), launchBrowser()]);
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${host.url}/${viewerQuery({ room: 'lab', follow: true })}`);
    await page.waitForSelector('.follow[data-stream=open]');
    const total: number[] = [];
    const publish: number[] = [];
    const show: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const title = `Numpy volume ${i}`;
      const drawn = await watchFirstFrame(page, title, 300_000);
      const published = await runPython<Published>(publishVolumeScript(`bench-volume-${i}`, 'lab', title), host.url);
      total.push((await drawn()) - published.published_at);
      publish.push(published.publish_ms);
      show.push(published.show_ms);
    }
    // A window change on one following page until the other shows it (the 200 ms pause before
    // sharing included): a second page following lab, the width slider moved on it.
    const other = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await other.goto(`${host.url}/${viewerQuery({ room: 'lab', follow: true })}`);
    await other.waitForSelector('.follow[data-stream=open]');
    await other.waitForFunction(
      () => document.querySelector('[data-testid=specimen-title]')?.textContent === 'Numpy volume 4' && document.querySelector('[data-testid=colour-bar]'),
      null,
      { timeout: 300_000 },
    );
    const windowMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const width = 300 + i * 50;
      const changedAt = await other.evaluate((w) => {
        const input = document.querySelector<HTMLInputElement>('[data-testid=width]')!;
        input.value = String(w);
        input.dispatchEvent(new Event('input', { bubbles: true }));
        return Date.now();
      }, width);
      const high = await other.evaluate(() => document.querySelector<HTMLElement>('[data-testid=colour-bar]')!.dataset.high);
      const seen = await page.waitForFunction(
        (want) => (document.querySelector<HTMLElement>('[data-testid=colour-bar]')?.dataset.high === want ? Date.now() : null),
        high,
        { timeout: 60_000, polling: 'raf' },
      );
      windowMs.push(((await seen.jsonValue()) as number) - changedAt);
    }
    const stat = (values: number[]) => `median ${fmt(percentile(values, 50), 0)} ms (min ${fmt(Math.min(...values), 0)}, max ${fmt(Math.max(...values), 0)})`;
    return {
      name: 'Workspace: publish() of a 256×256×128 uint16 numpy volume → the following page\'s first frame (Chromium + SwiftShader)',
      lines: [
        `publish() → first frame on the follower: ${stat(total)} over ${RUNS} runs`,
        `  of which publish() ${stat(publish)}, show() ${stat(show)}`,
        `window change on one following page → shown on the other (200 ms pause included): ${stat(windowMs)} over ${RUNS} changes`,
      ],
    };
  } finally {
    await browser.close();
    await host.stop('SIGTERM');
  }
}
