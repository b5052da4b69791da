/**
 * @module time-browser
 * The browser half of `npm run bench time`: the 5-D field in the viewer (Debian's Chromium,
 * SwiftShader) through a 5 MB/s link that every connection shares (throttled-link.ts).
 * 1. The first frame: bytes the link delivered before it (the field's answers alone, and
 *    everything: page, scripts, API).
 * 2. Playing at a rate a quarter above the goal (a player asked for exactly the goal shows the
 *    goal or a hair under it, so only asking for more says whether it keeps up), as direction
 *    colours (RGB8) and as one component: steps shown per second, how many at the coarse level, and per step the time from its bytes' arrival
 *    (Resource Timing's responseEnd) to the stage frame that drew it, and from the moment it
 *    was both wanted and in.
 * 3. The bounds, in the same run: the link alone (steps per second fetched through it, no
 *    browser) and SwiftShader alone (a step already in, from asked to drawn, no network).
 * The page is read through what it already exposes: the stepped panel's `data-drawn`, the
 * time controls' `data-wanted-t` and `data-coarse`, the stage canvas's `data-frames`.
 */
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../browser/browser-session.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';
import { startThrottledLink, type ThrottledLink } from './throttled-link.ts';

const RATE = 5_000_000;
const PLAY_SECONDS = Number(process.env.TIME_PLAY_SECONDS ?? 20);
const FIRST_FRAME_GOAL = 600_000;

/** One draw of a step by the page: its step, pieces, level, when drawn and when a stage frame put it on the canvas. */
interface Shown {
  drawn: string;
  coarse: boolean;
  at: number;
  frame: number | null;
  /** The page's next animation frame after that one (it waits for the drawn frame to be handed on). */
  next: number | null;
}

interface Marks {
  /** The first stage frame with a step of the field on it, and that step. */
  first?: { frame: number; drawn: string; coarse: boolean };
  shown: Shown[];
  /** [page ms, step] each time the step wanted changed. */
  wanted: [number, number][];
  frames: number;
}

/** Records every draw of a step, the stage frame after it, and every step wanted. */
function instrument(): void {
  performance.setResourceTimingBufferSize(100_000);
  const marks: Marks = { shown: [], wanted: [], frames: 0 };
  (window as unknown as { marks: Marks }).marks = marks;
  new MutationObserver((records) => {
    const now = performance.now();
    for (const record of records) {
      const el = record.target as HTMLElement;
      if (record.attributeName === 'data-drawn' && el.dataset.testid === 'stepped-panel') {
        const coarse = document.querySelector<HTMLElement>('[data-testid=time-controls]')?.dataset.coarse === 'true';
        marks.shown.push({ drawn: el.dataset.drawn ?? '', coarse, at: now, frame: null, next: null });
      } else if (record.attributeName === 'data-frames' && el.classList.contains('stage-canvas')) {
        marks.frames++;
        const panel = document.querySelector<HTMLElement>('[data-testid=stepped-panel]');
        if (!marks.first && panel?.dataset.drawn) {
          const coarse = document.querySelector<HTMLElement>('[data-testid=time-controls]')?.dataset.coarse === 'true';
          marks.first = { frame: now, drawn: panel.dataset.drawn, coarse };
        }
        const drawn = marks.shown.filter((shown) => shown.frame === null);
        for (const shown of drawn) shown.frame = now;
        requestAnimationFrame(() => drawn.forEach((shown) => (shown.next = performance.now())));
      } else if (record.attributeName === 'data-wanted-t' && el.dataset.testid === 'time-controls') {
        marks.wanted.push([now, Number(el.dataset.wantedT)]);
      }
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-drawn', 'data-frames', 'data-wanted-t'] });
}

const marksOf = (page: Page): Promise<Marks> => page.evaluate(() => (window as unknown as { marks: Marks }).marks);

/** The field's answers the page has had: step, piece, level, bytes, page ms of their last byte. */
interface Answer {
  t: number;
  c: string;
  coarse: boolean;
  bytes: number;
  /** Page ms: asked (fetch called), request sent, first byte, last byte. */
  start: number;
  sent: number;
  first: number;
  end: number;
}

function answers(page: Page): Promise<Answer[]> {
  return page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => e.name.includes('/data?'))
      .map((e) => {
        const query = new URL(e.name).searchParams;
        return { t: Number(query.get('t') ?? 0), c: query.get('c') ?? '0', coarse: query.has('max_dim'), bytes: e.transferSize,
          start: e.startTime, sent: e.requestStart, first: e.responseStart, end: e.responseEnd,
        };
      }),
  );
}

const ms = (v: number) => `${fmt(v, 0)} ms`;
const MB = (bytes: number) => (bytes < 1e6 ? `${fmt(bytes / 1e3, 0)} kB` : `${fmt(bytes / 1e6, 2)} MB`);
const spread = (values: number[]) =>
  values.length === 0 ? 'none' : `p50 ${ms(percentile(values, 50))}, p99 ${ms(percentile(values, 99))}, max ${ms(Math.max(...values))}`;

async function firstFrame(page: Page, link: ThrottledLink, url: string): Promise<string[]> {
  const before = link.bytes;
  await page.goto(url);
  await page.waitForFunction(() => (window as unknown as { marks: Marks }).marks.first, null, { timeout: 120_000 });
  const first = (await marksOf(page)).first!;
  const frame = first.frame;
  const origin = await page.evaluate(() => performance.timeOrigin);
  const all = link.bytesBy(origin + frame) - before;
  const data = (await answers(page)).filter((a) => a.end <= frame);
  const dataBytes = data.reduce((sum, a) => sum + a.bytes, 0);
  return [
    `first frame ${fmt(frame / 1000)} s after navigation (${first.coarse ? 'coarse' : 'full'} step ${first.drawn}): the field's answers before it ` +
      `${MB(dataBytes)} in ${data.length} (goal ≤ ${MB(FIRST_FRAME_GOAL)}: ${dataBytes <= FIRST_FRAME_GOAL ? 'met' : 'missed'}); everything the link ` +
      `delivered by then (page, scripts, API) ${MB(all)}`,
  ];
}

/** Waits until step `drawn` (`<t>:<pieces>`) is drawn at the full level and a stage frame has put it on the canvas. */
async function drawnFull(page: Page, drawn: string): Promise<void> {
  await page.waitForFunction(
    (want) =>
      document.querySelector<HTMLElement>('[data-testid=stepped-panel]')?.dataset.drawn === want &&
      document.querySelector<HTMLElement>('[data-testid=time-controls]')?.dataset.coarse === 'false',
    drawn,
    { timeout: 120_000 },
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Plays at `rate` for PLAY_SECONDS from step 0 and reports what was shown. */
async function play(page: Page, what: string, piece: string, rate: number, goal: number, shots: string): Promise<{ lines: string[]; bytes: number }> {
  await page.locator('[data-testid=stepped-panel] [data-control=time]').fill('0');
  await drawnFull(page, `0:${piece}`);
  const from = (await marksOf(page)).shown.length;
  await page.locator('[data-control=rate]').fill(String(rate));
  await page.locator('[data-control=play]').click();
  const started = await page.evaluate(() => performance.now());
  await page.waitForTimeout(PLAY_SECONDS * 1000);
  await page.locator('[data-control=play]').click();
  // After the pause: a screenshot reads the canvas back and would stall playback.
  await page.screenshot({ path: path.join(shots, `time-play-${piece}.png`) });
  const marks = await marksOf(page);
  const got = await answers(page);
  const shown = marks.shown.slice(from).filter((s) => s.frame !== null && s.at >= started);
  // A step counts when it first reaches the canvas after another step (playback may wrap round); a coarse one refined later counts as coarse.
  const firsts = shown.filter((s, i) => i === 0 || s.drawn.split(':')[0] !== shown[i - 1]!.drawn.split(':')[0]);
  const span = (Math.max(...firsts.map((s) => s.frame!)) - started) / 1000;
  const perSecond = firsts.length / span;
  const coarse = firsts.filter((s) => s.coarse).length;
  const sinceBytes: number[] = [];
  const sinceReady: number[] = [];
  for (const s of shown) {
    const t = Number(s.drawn.split(':')[0]);
    const answer = got.filter((a) => a.t === t && a.c === piece && a.coarse === s.coarse && a.end <= s.at).at(-1);
    if (!answer) continue;
    const wanted = marks.wanted.filter(([at, w]) => w === t && at <= s.at).at(-1)?.[0] ?? answer.end;
    sinceBytes.push(s.frame! - answer.end);
    sinceReady.push(s.frame! - Math.max(answer.end, wanted));
  }
  const full = got.filter((a) => a.c === piece && !a.coarse && a.end >= started);
  const bytes = full.length ? full.reduce((sum, a) => sum + a.bytes, 0) / full.length : 0;
  return {
    bytes,
    lines: [
      `  ${what}, asked ${rate} steps/s for ${PLAY_SECONDS} s: ${fmt(perSecond, 1)} steps/s shown ` +
        `(goal ≥ ${goal}: ${perSecond >= goal ? 'met' : 'missed'}), ` +
        `${coarse} of ${firsts.length} drawn coarse first; ${MB(bytes)} per full step`,
      `    bytes in to drawn on the canvas, per draw (${sinceBytes.length}): ${spread(sinceBytes)}`,
      `    wanted and in to drawn (a step fetched ahead waits for its beat): ${spread(sinceReady)} (goal ≤ 100 ms: ` +
        `${sinceReady.length && Math.max(...sinceReady) <= 100 ? 'met' : 'missed'})`,
    ],
  };
}

/**
 * Median ms from asking for a step already in (the slider) to the page's next animation frame
 * after the stage frame that drew it: the viewer and SwiftShader, no network. The next frame
 * waits for the drawn one to be finished and handed to the compositor (read back in software).
 */
async function drawOnly(page: Page, piece: string): Promise<number> {
  const times: number[] = [];
  const now = Number(await page.locator('[data-testid=time-controls]').getAttribute('data-shown-t'));
  // The step on screen and the one before it are both kept (fetched behind as well as ahead).
  for (let i = 0; i < 10; i++) {
    const t = i % 2 === 0 ? now - 1 : now;
    const from = (await marksOf(page)).shown.length;
    const asked = await page.evaluate((step) => {
      const slider = document.querySelector<HTMLInputElement>('[data-testid=stepped-panel] [data-control=time]')!;
      slider.value = String(step);
      slider.dispatchEvent(new Event('change'));
      return performance.now();
    }, t);
    const handle = await page.waitForFunction(
      ([start, want]) => (window as unknown as { marks: Marks }).marks.shown.slice(start).find((s) => s.drawn === want && s.next !== null)?.next,
      [from, `${t}:${piece}`] as const,
      { timeout: 60_000, polling: 'raf' },
    );
    times.push(((await handle.jsonValue()) as number) - asked);
  }
  return percentile(times, 50);
}

/** Steps per second fetched through the link with four requests in flight, no browser, and the link's bytes a step (headers included). */
async function linkAlone(link: ThrottledLink, query: string, count: number): Promise<{ perSecond: number; bytes: number }> {
  let next = 150;
  const before = link.bytes;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < 150 + count) {
      const t = next++;
      // Accepting what Chromium accepts, so the host picks the same encoding.
      const headers = { 'accept-encoding': 'gzip, deflate, br' };
      await (await fetch(`${link.url}/api/specimens/field/data?room_id=time&t=${t}&${query}`, { headers })).arrayBuffer();
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { perSecond: count / ((performance.now() - started) / 1000), bytes: (link.bytes - before) / count };
}

export async function browserPart(host: RunningHost): Promise<string[]> {
  const link = await startThrottledLink(host.url, RATE, { shared: true });
  const shots = mkdtempSync(path.join(tmpdir(), 'vitrine-time-shots-'));
  const lines = [
    `in the viewer (Chromium, SwiftShader) through a ${RATE / 1e6} MB/s link shared by all its connections; load average ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')}`,
  ];
  const browser = await launchBrowser();
  let drawRgb = 0;
  let drawOne = 0;
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => process.stderr.write(`page error: ${error.message}\n`));
    page.on('console', (message) => message.type() !== 'log' && process.stderr.write(`page ${message.type()}: ${message.text()}\n`));
    await page.addInitScript(instrument);
    lines.push(...(await firstFrame(page, link, `${link.url}/?specimen=field&room=time`)));
    await drawnFull(page, '0:0');
    lines.push('playing:');
    await page.locator('[data-control=vector-mode]').selectOption('rgb');
    const rgb = await play(page, 'direction as RGB8', 'rgb', 10, 8, shots);
    lines.push(...rgb.lines);
    drawRgb = await drawOnly(page, 'rgb');
    await page.locator('[data-control=vector-mode]').selectOption('0');
    const one = await play(page, 'one component (as the viewer asks it)', '0', 31, 25, shots);
    lines.push(...one.lines);
    drawOne = await drawOnly(page, '0');
    lines.push(`screenshots (where each playback paused): ${shots}`);
  } finally {
    await browser.close();
  }
  lines.push('the bounds, in this run (drawing: the viewer and SwiftShader with no network, median of 10):');
  for (const [what, query, drawn] of [
    ['direction as RGB8', 'c=rgb', drawRgb],
    ['one component, float32', 'c=0', drawOne],
    ['one component, uint8', 'c=0&dtype=uint8', null],
  ] as const) {
    const alone = await linkAlone(link, query, 40);
    const draw = drawn === null ? ' (the viewer asks float32)' : `; a step already in, asked to drawn and handed on: ${ms(drawn)} (${fmt(1000 / drawn, 0)}/s)`;
    lines.push(
      `  ${what.padEnd(24)} ${MB(alone.bytes)} a step on the wire: the link allows ${fmt(RATE / alone.bytes, 1)} steps/s, link and host with no ` +
        `browser ${fmt(alone.perSecond, 1)} steps/s${draw}`,
    );
  }
  await link.close();
  return lines;
}
