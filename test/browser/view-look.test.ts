/**
 * The page's look of a followed room and its picture: the volume's opacity control shows the
 * room's view `opacity` as the same 0..1 number (0.6 reads 0.60) and draws with it, and moving
 * it on one following page sets the room's view, which the other page then shows; Save picture
 * downloads a PNG of the stage at the canvas's size, named after the specimen and the room.
 * Screenshots (and the saved picture) land in os.tmpdir()/vitrine-browser-shots.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, framesDrawn, openPage, shot, SHOTS_DIR, waitForFrame, waitForState, waitForText } from './browser-session.ts';

const session = browserAndHost([], DRAW_SCALE);

const JOB = '[data-testid=job-state]';
const OPACITY = '[data-testid=slice-panel] input[data-axis=opacity]';
const SHOWN = '[data-testid=volume-opacity]';

/** A page following `room` on the density volume, with the view changes it sent. */
async function follower(room: string): Promise<{ page: Page; viewPuts: () => Request[]; errors: string[] }> {
  const link = viewerQuery({ specimen: 'density', room, params: { size: 24 }, follow: true });
  const { page, requests, errors } = await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${link}`);
  await page.waitForSelector('.follow[data-stream=open]');
  await waitForState(page, JOB, ['done', 'cached']);
  const viewPuts = (): Request[] => requests.filter((r) => r.method() === 'PUT' && new URL(r.url()).pathname.endsWith('/view'));
  return { page, viewPuts, errors };
}

async function putView(room: string, view: Record<string, unknown>): Promise<void> {
  const answer = await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(view),
  });
  expect(answer.status).toBe(200);
}

async function roomView(room: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${session.host.baseUrl}/api/rooms/${room}/view`)).json()) as Record<string, unknown>;
}

/** The PNG's width and height, from its IHDR chunk (after the 8-byte signature and the chunk's length and type). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('the look of a followed room', () => {
  it("shows the room's opacity as its own number, draws with it, and shares the page's", async () => {
    const room = freshRoom('opacity');
    const first = await follower(room);
    const second = await follower(room);
    await putView(room, { mode: 'volume' });
    for (const { page } of [first, second]) await page.waitForSelector(OPACITY, { state: 'visible' });
    await waitForText(second.page, SHOWN, '0.20');
    const soft = await second.page.locator('canvas.stage-canvas').screenshot();

    const frames = await framesDrawn(second.page);
    await putView(room, { opacity: 0.6 });
    for (const { page } of [first, second]) {
      await waitForText(page, SHOWN, '0.60');
      expect(Number(await page.locator(OPACITY).inputValue())).toBeCloseTo(0.6, 9);
    }
    await waitForFrame(second.page, frames);
    const dense = await second.page.locator('canvas.stage-canvas').screenshot();
    expect(dense.equals(soft)).toBe(false);
    // Applying the room's value is not the user's change: nothing goes back.
    expect(second.viewPuts().filter((r) => 'opacity' in (r.postDataJSON() as object))).toEqual([]);

    // Moved on the first page: the room's view takes the number shown, and the second page shows it.
    await first.page.evaluate((sel) => {
      const input = document.querySelector<HTMLInputElement>(sel)!;
      input.value = '0.35';
      input.dispatchEvent(new Event('input', { bubbles: true }));
    }, OPACITY);
    await waitForText(first.page, SHOWN, '0.35');
    await waitFor(async () => ((await roomView(room)).opacity === 0.35 ? true : undefined), "the room's view taking opacity 0.35");
    await waitForText(second.page, SHOWN, '0.35');
    await waitFor(() => first.viewPuts().length > 0 || undefined, "the first page's view request being reported");
    expect(first.viewPuts().map((r) => r.postDataJSON())).toEqual([{ opacity: 0.35 }]);
    await shot(second.page, 'view-look-opacity');
    for (const p of [first, second]) expect(p.errors).toEqual([]);
  });

  it('saves a picture of the stage as a PNG the size of its canvas', async () => {
    const room = freshRoom('picture');
    const { page, errors } = await follower(room);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=save-picture]')]);
    expect(download.suggestedFilename()).toBe(`density-${room}.png`);
    const bytes = await readFile((await download.path())!);
    const canvas = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')!;
      return { width: c.width, height: c.height };
    });
    expect(pngSize(bytes)).toEqual(canvas);
    expect(bytes.length).toBeGreaterThan(1000);
    // Kept beside the screenshots, to be looked at.
    await download.saveAs(path.join(SHOTS_DIR, 'view-look-saved-picture.png'));
    await shot(page, 'view-look-save-picture');
    expect(errors).toEqual([]);
  });
});
