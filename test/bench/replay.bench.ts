/**
 * @module replay.bench
 * A session recorded from a real run and replayed (`npm run bench replay`): one host with a data
 * folder of its own, room A driven by a notebook (Debian's Python 3 running the `vitrine` client,
 * one cell at a time) and by a Chromium page using the viewer's own controls, with real gaps:
 * the notebook publishes a time-lapse (six steps of 24³) and adds it as a layer, sets the window
 * and the camera; the page steps time forward twice and adds a layer from its layer list; the
 * notebook places a point and a ruler. A second page follows room A and is photographed at three
 * moments (the window set, step 2 shown, the marks shown). Then `POST /api/rooms/B/replay
 * {"from": A}` at speed 1, with a page following room B photographed at the same three moments.
 * 1. timing: each change replayed (room B's log, from its first replayed change) against its
 *    offset in room A's log: max and p99 error (target ≤ 50 ms);
 * 2. frames: each pair of screenshots compared by structure (frame-compare.ts); the PNGs land in
 *    os.tmpdir()/vitrine-browser-shots as replay-A-<moment>.png and replay-B-<moment>.png.
 * Seeking to the middle of an hour of log is part 5 of `npm run bench presence`. With
 * REPLAY_BENCH_LOGS=<file>, both rooms' logs are written there as JSON (to see what was matched).
 */
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { launchBrowser, openPage, SHOTS_DIR, waitForDrawn } from '../browser/browser-session.ts';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { viewerQuery } from '../helpers/room.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { compareFrames } from './frame-compare.ts';
import { fmt, percentile } from './host-helpers.ts';
import { startNotebook, type Notebook } from './notebook-process.ts';

interface Entry {
  seq: number;
  ts: number;
  by: string;
  type: string;
  op?: string;
}

const WINDOW = [0.2, 0.9];
const CAMERA = { position: [11.5, 11.5, 52], target: [11.5, 11.5, 11.5], up: [0, 1, 0] };

/** The three moments photographed, each a state of the page that follows the room. */
const MOMENTS = {
  window: { layers: 'lapse', t: '0', marks: null, low: String(WINDOW[0]) },
  step: { layers: 'lapse', t: '2', marks: null, low: String(WINDOW[0]) },
  marks: { layers: 'cube lapse', t: null, marks: '2', low: null },
} as const;
type Moment = keyof typeof MOMENTS;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function logOf(base: string, room: string): Promise<Entry[]> {
  const answer = (await (await fetch(`${base}/api/rooms/${room}/log?limit=10000`)).json()) as { entries: Entry[] };
  return answer.entries;
}

/** Waits until `page` (following a room) shows `moment`, drawn, then photographs its stage. */
async function photograph(page: Page, moment: Moment, name: string): Promise<PNG> {
  await page.waitForFunction(
    (want) => {
      const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
      const layers = (canvas?.dataset.layersDrawn ?? '').split(' ').sort().join(' ');
      const time = document.querySelector<HTMLElement>('[data-testid=time-controls]')?.dataset;
      const bar = document.querySelector<HTMLElement>('[data-testid=colour-bar]')?.dataset;
      return (
        layers === want.layers &&
        canvas?.dataset.roomCamera !== undefined &&
        (want.t === null || (time?.shownT === want.t && time.coarse === 'false')) &&
        (want.marks === null || canvas.dataset.marks === want.marks) &&
        (want.low === null || bar?.low === want.low)
      );
    },
    MOMENTS[moment],
    { timeout: 120_000 },
  );
  await waitForDrawn(page);
  // The last change asked for a frame: the stage draws it at the next animation frame, before the second.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const stage = (await page.locator('canvas.stage-canvas').boundingBox())!;
  const bytes = await page.screenshot({ clip: { x: stage.x, y: stage.y, width: Math.floor(stage.width), height: Math.floor(stage.height) } });
  await writeFile(path.join(SHOTS_DIR, `${name}.png`), bytes);
  return PNG.sync.read(bytes);
}

/** Room A's session, driven by the notebook and the page, photographed by the follower at each moment. */
async function record(notebook: Notebook, driver: Page, follower: Page): Promise<Map<Moment, PNG>> {
  const shots = new Map<Moment, PNG>();
  await notebook.run(
    'n = 24\nz, y, x = np.mgrid[0:n, 0:n, 0:n]\n' +
      'lapse = np.stack([np.clip(1 - np.sqrt((x - 6 - 2.4 * t) ** 2 + (y - 12) ** 2 + (z - 12) ** 2) / 6, 0, 1) for t in range(6)]).astype(np.float32)\n' +
      "c.publish('replay-lapse', lapse, axes='tzyx')\n" +
      "room.add('replay-lapse', id='lapse')",
  );
  await pause(700);
  await notebook.run(`c.set_view(room.name, window=${JSON.stringify(WINDOW)}, camera=${JSON.stringify(CAMERA)})`);
  shots.set('window', await photograph(follower, 'window', 'replay-A-window'));
  await pause(900);
  const forward = driver.locator('[data-testid=time-controls] [data-control=step-forward]');
  await forward.click();
  await pause(600);
  await forward.click();
  shots.set('step', await photograph(follower, 'step', 'replay-A-step'));
  await pause(800);
  await driver.locator('[data-testid=add-layer-source]').selectOption('specimen:cube');
  await driver.locator('[data-testid=add-layer]').click();
  await pause(1000);
  await notebook.run("room.annotate('point', [12, 18, 12], label='here')");
  await pause(500);
  await notebook.run("room.annotate('line', [[4, 4, 12], [20, 4, 12]], label='ruler')");
  shots.set('marks', await photograph(follower, 'marks', 'replay-A-marks'));
  return shots;
}

/**
 * What a log entry changed, as the replayed room records it (a layer added or changed there is
 * a scene set whole). A layer's result, and the room's entry it makes when the layer is the
 * active one, follow from the layer: the replayed room computes them itself ('result').
 */
function part(entry: Entry): string {
  if ((entry.type === 'layer' && entry.op === 'result') || entry.type === 'entry') return 'result';
  return entry.type === 'layer' ? 'scene' : entry.type;
}

const said = (e: Entry) => `${e.type}${e.op ? ` ${e.op}` : ''} by ${e.by}`;

/**
 * Each change room A's log holds against the replayed room's record of it (the next entry of
 * room B's log after the replay began that changed the same part), as offsets from the first
 * change of each. A layer's result is not replayed (room B computes its own): those are listed
 * beside, with their offsets in both rooms, and not counted. The first change's own delay (from
 * the replay's start, its `replay` entry) is said too.
 */
function offsetErrors(original: Entry[], replayed: Entry[]): { errors: number[]; lines: string[] } {
  const played = replayed.slice(replayed.findIndex((e) => e.type === 'replay') + 1);
  const pairs: [Entry, Entry | undefined][] = [];
  let at = 0;
  for (const entry of original.filter((e) => part(e) !== 'result')) {
    const next = played.findIndex((e, i) => i >= at && part(e) === part(entry));
    pairs.push([entry, played[next]]);
    if (next >= 0) at = next + 1;
  }
  const [a0, b0] = [pairs[0]![0].ts, pairs[0]![1]?.ts ?? 0];
  const errors = pairs.filter(([, b]) => b).map(([a, b]) => Math.abs(b!.ts - b0 - (a.ts - a0)));
  const lines = pairs.map(([a, b]) =>
    b
      ? `    ${said(a)}: at ${a.ts - a0} ms in A, ${b.ts - b0} ms in B (${said(b)}), off by ${b.ts - b0 - (a.ts - a0)} ms`
      : `    ${said(a)}: at ${a.ts - a0} ms in A, NOT FOUND in B`,
  );
  const results = (log: Entry[], origin: number) => log.filter((e) => part(e) === 'result').map((e) => `${e.ts - origin}`);
  const [inA, inB] = [results(original, a0).join(', '), results(played, b0).join(', ')];
  lines.push(`    layers' results and the entries they made (computed in each room, not replayed): at ${inA} ms in A, ${inB} ms in B`);
  // From the replay's start instead: how late each change was written against its offset (the first one's lateness is in every
  // error above, with its sign turned); the spread of these is the jitter whatever the origin.
  const begun = replayed.find((e) => e.type === 'replay')!.ts;
  const late = pairs.filter(([, b]) => b).map(([a, b]) => b!.ts - begun - (a.ts - a0));
  lines.push(
    `    from the replay's start (its \`replay\` entry) each change was written ${Math.min(...late)} to ${Math.max(...late)} ms after its offset ` +
      `(the first ${late[0]} ms); spread ${Math.max(...late) - Math.min(...late)} ms`,
  );
  if (errors.length < pairs.length) errors.push(Infinity);
  return { errors, lines };
}

async function session(host: HostProcess, browser: Browser, contexts: BrowserContext[]): Promise<string[]> {
  const base = host.baseUrl;
  const [roomA, roomB] = [`replay-a-${Date.now()}`, `replay-b-${Date.now()}`];
  const notebook = startNotebook({ VITRINE_URL: base, ROOM: roomA });
  const errors: string[] = [];
  try {
    await notebook.run("import os\nimport numpy as np\nfrom vitrine import Client\nc = Client(os.environ['VITRINE_URL'])\nroom = c.room(os.environ['ROOM'])");
    const driver = await openPage(browser, contexts, `${base}/${viewerQuery({ room: roomA, follow: true })}`);
    const followA = await openPage(browser, contexts, `${base}/${viewerQuery({ room: roomA, follow: true })}`);
    for (const opened of [driver, followA]) await opened.page.waitForSelector('.follow[data-stream=open]');
    const shotsA = await record(notebook, driver.page, followA.page);
    errors.push(...driver.errors, ...followA.errors);
    const original = await logOf(base, roomA);
    // Room A's session is over: its pages go, so they draw nothing while room B is measured.
    await Promise.all([driver, followA].map((opened) => opened.page.context().close()));

    const followB = await openPage(browser, contexts, `${base}/${viewerQuery({ room: roomB, follow: true })}`);
    await followB.page.waitForSelector('.follow[data-stream=open]');
    const started = await fetch(`${base}/api/rooms/${roomB}/replay`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: roomA, speed: 1 }),
    });
    if (started.status !== 202) throw new Error(`POST .../replay answered ${started.status}: ${await started.text()}`);
    const shotsB = new Map<Moment, PNG>();
    for (const moment of Object.keys(MOMENTS) as Moment[]) shotsB.set(moment, await photograph(followB.page, moment, `replay-B-${moment}`));
    await waitFor(async () => {
      const status = (await (await fetch(`${base}/api/rooms/${roomB}/replay`)).json()) as { state: string };
      return status.state === 'ended' ? true : undefined;
    }, 'the replay ended');
    errors.push(...followB.errors);

    const replayedLog = await logOf(base, roomB);
    if (process.env.REPLAY_BENCH_LOGS) await writeFile(process.env.REPLAY_BENCH_LOGS, JSON.stringify({ original, replayedLog }, null, 1));
    const timing = offsetErrors(original, replayedLog);
    const lines = [
      `1. timing: ${timing.errors.length} changes over ${fmt((original.at(-1)!.ts - original[0]!.ts) / 1000, 1)} s replayed at speed 1: ` +
        `error max ${fmt(Math.max(...timing.errors), 0)} ms, p99 ${fmt(percentile(timing.errors, 99), 0)} ms (target ≤ 50)`,
      ...timing.lines,
      '2. frames: the follower of A against the follower of B at the same moments (stage only; a 16×10 grid of mean colours)',
    ];
    for (const moment of Object.keys(MOMENTS) as Moment[]) {
      const d = compareFrames(shotsA.get(moment)!, shotsB.get(moment)!);
      const hue = (h: number | null) => (h === null ? 'none' : `${fmt(h, 0)}°`);
      lines.push(
        `  ${moment}: ${fmt(100 * d.pixelsOff, 2)}% of pixels off by more than 32; worst cell ${fmt(d.worstCell, 1)}/255, ` +
          `${d.cellsOff} of ${d.cells} cells off by more than 16; ` +
          `drawn ${fmt(100 * d.drawn[0], 1)}% / ${fmt(100 * d.drawn[1], 1)}%; hue ${hue(d.hue[0])} / ${hue(d.hue[1])}`,
      );
    }
    lines.push(`  screenshots: ${SHOTS_DIR}/replay-{A,B}-{${Object.keys(MOMENTS).join(',')}}.png`);
    lines.push(`  page errors: ${errors.length === 0 ? 'none' : errors.join('; ')}`);
    return lines;
  } finally {
    await notebook.close();
  }
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const dataDir = tempDataDir();
  const lines = [`load average ${loadavg().map((n) => fmt(n, 1)).join(' ')} on this machine at the start`];
  const [host, browser] = await Promise.all([startHost(['--data-dir', dataDir, '--log-level', 'warn']), launchBrowser()]);
  const contexts: BrowserContext[] = [];
  try {
    lines.push(...(await session(host, browser, contexts)));
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
    await browser.close();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  lines.push(`load average ${loadavg().map((n) => fmt(n, 1)).join(' ')} at the end`);
  lines.push('seeking to the middle of a one-hour log: part 5 of npm run bench presence');
  return { name: 'replay: a recorded session of a page and a notebook played into another room', lines };
}
