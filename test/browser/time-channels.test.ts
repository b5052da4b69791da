/**
 * Volumes with time and channels in the web viewer, against a real host on the fixture
 * plugins: two channels of a 16³ time-lapse drawn each in its colour and added up (red and
 * green, yellow where they overlap); a leader moving the time slider and a following page
 * showing the same step, which the room's layer keeps; playing and pausing reaching the
 * follower; the channels ray marched where the volume stands; a late joiner opening on the
 * room's step; a vector field in a layer beside the active one drawn as its direction in
 * colour. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, shot } from './browser-session.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

const session = browserAndHost([], DRAW_SCALE);
const STEPPED = '[data-testid=stepped-panel]';

async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${session.host.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

async function open(query: string): Promise<{ page: Page; errors: string[] }> {
  const context = await session.browser.newContext({ viewport: { width: 1100, height: 720 } });
  session.contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${session.host.baseUrl}/${query}`);
  return { page, errors };
}

/** Waits until the stepped volume has drawn `drawn` (`<t>:<pieces>`) and the stage has put it on the canvas. */
async function drawnStep(page: Page, drawn: string): Promise<void> {
  try {
    await page.waitForFunction(([sel, want]) => document.querySelector<HTMLElement>(sel)?.dataset.drawn === want, [STEPPED, drawn] as const, {
      timeout: STATE_WAIT_MS,
    });
  } catch (error) {
    const dump = await page.evaluate(() => ({
      panel: document.querySelector('.stage-tools')?.outerHTML.slice(0, 1500),
      shown: document.querySelector<HTMLElement>('.stage-pane')?.dataset.shown,
      overlay: document.querySelector('.stage-overlay')?.textContent,
      job: document.querySelector('[data-testid=job-state]')?.textContent,
    }));
    throw new Error(`${JSON.stringify(dump)} ${(error as Error).message}`);
  }
  // The stage draws on the next animation frame after a change: two frames on, the step is on the canvas.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Waits until the time controls' data attributes hold `want` (`playing`, `shownT`). */
async function timeControls(page: Page, want: Record<string, string>): Promise<void> {
  await page.waitForFunction(
    (wanted) => {
      const data = document.querySelector<HTMLElement>('[data-testid=time-controls]')?.dataset;
      return data !== undefined && Object.entries(wanted).every(([key, value]) => data[key] === value);
    },
    want,
    { timeout: STATE_WAIT_MS },
  );
}

/**
 * Stage pixels by colour, outside the tool panel over it (its channel swatches): red, green and
 * yellow (red and green added up), and reddish or greenish over the other.
 */
async function colours(page: Page): Promise<Record<'red' | 'green' | 'yellow' | 'redder' | 'greener', number> & { box: number[] }> {
  const canvas = page.locator('canvas.stage-canvas');
  const [box, tools] = [(await canvas.boundingBox())!, (await page.locator('.stage-tools').boundingBox())!];
  // One pixel a CSS pixel, as the boxes and counts are: the stage draws at DRAW_SCALE.
  const png = PNG.sync.read(await canvas.screenshot({ scale: 'css' }));
  // `box`: [left, top, right, bottom] of the saturated pixels.
  const out = { red: 0, green: 0, yellow: 0, redder: 0, greener: 0, box: [Infinity, Infinity, -Infinity, -Infinity] };
  for (let i = 0; i < png.data.length; i += 4) {
    const [x, y] = [box.x + ((i / 4) % png.width), box.y + Math.floor(i / 4 / png.width)];
    if (x >= tools.x && x <= tools.x + tools.width && y >= tools.y && y <= tools.y + tools.height) continue;
    const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
    if (r > 150 && g > 150 && b < 90) out.yellow++;
    else if (r > 150 && g < 90 && b < 90) out.red++;
    else if (g > 150 && r < 90 && b < 90) out.green++;
    if (r - g > 80) out.redder++;
    if (g - r > 80) out.greener++;
    if (Math.max(r, g, b) - Math.min(r, g, b) > 60) {
      const [left, top, right, bottom] = out.box as [number, number, number, number];
      out.box = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
    }
  }
  return out;
}

describe('time and channels', () => {
  it('blends two channels in their colours; a follower shows the step the leader moved to', async () => {
    const room = freshRoom('time');
    await api('PUT', `/api/rooms/${room}/scene`, {
      layers: [{ id: 'balls', source: { specimen: 'two-channels', params: { size: 16, steps: 4 } } }],
      active: 'balls',
    });
    const [leader, follower] = await Promise.all([open(viewerQuery({ room, follow: true })), open(viewerQuery({ room, follow: true }))]);
    await Promise.all([drawnStep(leader.page, '0:0,1'), drawnStep(follower.page, '0:0,1')]);
    const names = await leader.page.locator('[data-testid=channel-row] .channel-name').allTextContents();
    expect(names).toEqual(['left', 'right']);
    const blended = await colours(leader.page);
    await shot(leader.page, 'time-channels-blended');
    // Each ball in its own colour, and their overlap in both added up.
    expect(blended.red).toBeGreaterThan(200);
    expect(blended.green).toBeGreaterThan(200);
    expect(blended.yellow).toBeGreaterThan(50);

    await leader.page.locator(`${STEPPED} [data-control=time]`).fill('2');
    await drawnStep(leader.page, '2:0,1');
    await drawnStep(follower.page, '2:0,1');
    expect(await follower.page.locator('[data-testid=time-readout]').textContent()).toBe('2 / 3');
    const scene = (await api('GET', `/api/rooms/${room}/scene`)) as RoomScene;
    expect(scene.layers[0]!.t).toBe(2);
    await shot(follower.page, 'time-channels-follower-step-2');

    // A channel switched off on the follower is off on the leader too, and only the other is drawn.
    await follower.page.locator('[data-control=channel-visible][data-channel="0"]').uncheck();
    await drawnStep(leader.page, '2:1');
    const alone = await colours(leader.page);
    expect(alone.red).toBe(0);
    expect(alone.green).toBeGreaterThan(200);

    // Played on the leader, the follower plays along; paused, both stop on the leader's step.
    await leader.page.locator('[data-control=rate]').fill('8');
    await leader.page.locator('[data-control=play]').click();
    // Playing on from step 2, it comes to step 3.
    await timeControls(follower.page, { playing: '8', shownT: '3' });
    await leader.page.locator('[data-control=play]').click();
    const stopped = await leader.page.locator('[data-testid=time-controls]').getAttribute('data-shown-t');
    await timeControls(follower.page, { playing: '0', shownT: stopped! });
    await expect.poll(async () => ((await api('GET', `/api/rooms/${room}/scene`)) as RoomScene).layers[0], { timeout: STATE_WAIT_MS }).toMatchObject({
      t: Number(stopped),
      playing: 0,
    });

    // Ray marched, the two channels' boxes add their light too.
    await leader.page.locator('[data-control=channel-visible][data-channel="0"]').check();
    await drawnStep(leader.page, `${stopped}:0,1`);
    const sliced = await colours(leader.page);
    await leader.page.locator(`${STEPPED} select[data-axis=view]`).selectOption('volume');
    await leader.page.waitForFunction((sel) => document.querySelector(`${sel} .slice-title`)?.textContent === 'Channels: volume', STEPPED);
    await drawnStep(leader.page, `${stopped}:0,1`);
    const marched = await colours(leader.page);
    await shot(leader.page, 'time-channels-volume');
    expect(marched.red).toBeGreaterThan(100);
    expect(marched.green).toBeGreaterThan(100);
    // Where the slices through the balls were: each channel's box stands where the volume does.
    const [left, top, right, bottom] = sliced.box as [number, number, number, number];
    const near = 20;
    expect(marched.box[0]).toBeGreaterThan(left - near);
    expect(marched.box[1]).toBeGreaterThan(top - near);
    expect(marched.box[2]).toBeLessThan(right + near);
    expect(marched.box[3]).toBeLessThan(bottom + near);

    // A page that joins later opens on the room's step (one other than the first).
    const last = stopped === '3' ? '1' : '3';
    await leader.page.locator(`${STEPPED} [data-control=time]`).fill(last);
    await expect.poll(async () => ((await api('GET', `/api/rooms/${room}/scene`)) as RoomScene).layers[0]!.t, { timeout: STATE_WAIT_MS }).toBe(Number(last));
    // The leader and the follower have done their part: closed, they do not draw the late
    // joiner's camera, ray marched in software, while it opens.
    expect([...leader.errors, ...follower.errors]).toEqual([]);
    await Promise.all([leader.page.context().close(), follower.page.context().close()]);
    const late = await open(viewerQuery({ room, follow: true }));
    await drawnStep(late.page, `${last}:0,1`);
    expect(late.errors).toEqual([]);
  });

  it('draws a vector field as its direction in colour', async () => {
    // A layer beside the active one: its steps come from its own data URL.
    const room = freshRoom('flow');
    await api('PUT', `/api/rooms/${room}/scene`, {
      layers: [
        { id: 'balls', source: { specimen: 'two-channels', params: { size: 16, steps: 2 } }, visible: false },
        { id: 'flow', source: { specimen: 'outward-flow', params: { size: 16, steps: 3 } } },
      ],
      active: 'balls',
    });
    const { page, errors } = await open(viewerQuery({ room, follow: true }));
    await page.locator('[data-testid=layer-row][data-layer=flow] .layer-name').click();
    await drawnStep(page, '0:0');
    await page.locator('[data-control=vector-mode]').selectOption('rgb');
    await drawnStep(page, '0:rgb');
    const direction = await colours(page);
    await shot(page, 'time-channels-vector-rgb');
    // Pointing away from the middle: towards +x and -y more red than green, towards -x and +y the other way.
    expect(direction.redder).toBeGreaterThan(500);
    expect(direction.greener).toBeGreaterThan(500);
    await page.locator('[data-control=vector-mode]').selectOption('magnitude');
    await drawnStep(page, '0:magnitude');
    expect(errors).toEqual([]);
  });
});
