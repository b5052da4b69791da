/**
 * Editing a segmentation from two pages of one room, in Chromium against a real host: one page
 * paints with the brush by a click on the stage, the other sees the painted ball drawn (the
 * pixels of the stage's middle change on both), both list the edit with who made it, and
 * Ctrl-Z on the painting page undoes it: both pages' middles show again exactly what they
 * showed before. Then the other page merges two segments by two picks, and its Ctrl-Z undoes
 * that the same way. An emulated headset (IWER) in another room splits a segment by two
 * triggers on its voxels; the desktop page draws the new segment, and the undo restores it. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage, openPage, shot, waitForDrawn } from './browser-session.ts';
import { aimAt, framesPass, pullTriggerAt } from './vr-controller.ts';

const session = browserAndHost([], DRAW_SCALE);
const N = 32;

/** Two segments side by side (ids 1 and 2 split along x), uint8 [z, y, x]. */
function segmentation(): Buffer {
  const data = new Uint8Array(N ** 3);
  for (let z = 0; z < N; z++) for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) data[(z * N + y) * N + x] = x < N / 2 ? 1 : 2;
  return npyBytes({ descr: '|u1', shape: [N, N, N], data });
}

/** The stage's middle, as pixels (a PNG of a fixed square). */
async function middle(page: Page): Promise<Buffer> {
  const box = (await page.locator('canvas.stage-canvas').boundingBox())!;
  const side = Math.min(box.width, box.height) / 4;
  return page.screenshot({ clip: { x: box.x + box.width / 2 - side / 2, y: box.y + box.height / 2 - side / 2, width: side, height: side } });
}

/** Waits until the page lists `count` edits and has drawn since. */
async function edits(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=edit-list] li').length === n, count, { timeout: STATE_WAIT_MS });
  await waitForDrawn(page);
  await page.waitForTimeout(300);
}

describe('editing labels on the page', () => {
  it('paints on one page, the other draws it, and Ctrl-Z gives both their picture back', async () => {
    const base = session.host.baseUrl;
    const put = await fetch(`${base}/api/specimens/seg?filename=seg.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(segmentation()),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('edit-labels');
    const scene = await fetch(`${base}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers: [{ id: 'seg', source: { specimen: 'seg' }, kind: 'labels', mode: 'volume' }] }),
    });
    expect(scene.status).toBe(200);
    const link = `${base}/${viewerQuery({ room, follow: true })}`;
    const a = await openPage(session.browser, session.contexts, link);
    const b = await openPage(session.browser, session.contexts, link);
    await Promise.all([waitForDrawn(a.page), waitForDrawn(b.page)]);
    await a.page.waitForTimeout(500);
    const before = [await middle(a.page), await middle(b.page)];

    await a.page.click('[data-edit-tool=brush]');
    await a.page.fill('[data-testid=edit-radius]', '6');
    await a.page.fill('[data-testid=edit-label]', '9');
    await a.page.locator('[data-testid=edit-label]').dispatchEvent('change');
    await a.page.locator('[data-testid=edit-radius]').dispatchEvent('change');
    const box = (await a.page.locator('canvas.stage-canvas').boundingBox())!;
    await a.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await Promise.all([edits(a.page, 1), edits(b.page, 1)]);
    await shot(a.page, 'edit-labels-painted-a');
    await shot(b.page, 'edit-labels-painted-b');
    expect(await b.page.textContent('[data-testid=edit-list] li')).toMatch(/#\d+ paint by /);
    const painted = [await middle(a.page), await middle(b.page)];
    expect(painted[0]!.equals(before[0]!)).toBe(false);
    expect(painted[1]!.equals(before[1]!)).toBe(false);

    await a.page.click('[data-edit-tool=none]');
    await a.page.keyboard.press('Control+z');
    await Promise.all([edits(a.page, 2), edits(b.page, 2)]);
    await shot(b.page, 'edit-labels-undone-b');
    expect(await b.page.locator('[data-testid=edit-list] li.undone').count()).toBe(1);
    expect((await middle(a.page)).equals(before[0]!)).toBe(true);
    expect((await middle(b.page)).equals(before[1]!)).toBe(true);

    // The other page merges: segment 2 (the right face) into 1 (the left); both middles turn, and its own Ctrl-Z turns them back.
    const click = async (page: Page, x: number, y: number): Promise<void> => {
      const at = (await page.locator('canvas.stage-canvas').boundingBox())!;
      await page.mouse.click(at.x + at.width * x, at.y + at.height * y);
    };
    await b.page.click('[data-edit-tool=merge]');
    await click(b.page, 0.22, 0.5);
    await click(b.page, 0.6, 0.5);
    await Promise.all([edits(a.page, 3), edits(b.page, 3)]);
    await shot(a.page, 'edit-labels-merged-a');
    expect(await a.page.textContent('[data-testid=edit-list] li')).toMatch(/#\d+ merge by /);
    expect((await middle(a.page)).equals(before[0]!)).toBe(false);
    expect((await middle(b.page)).equals(before[1]!)).toBe(false);
    await b.page.click('[data-edit-tool=none]');
    await b.page.keyboard.press('Control+z');
    await Promise.all([edits(a.page, 4), edits(b.page, 4)]);
    expect((await middle(a.page)).equals(before[0]!)).toBe(true);
    expect((await middle(b.page)).equals(before[1]!)).toBe(true);
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it("draws a layer's edit in place, not by loading the edited version whole", async () => {
    const base = session.host.baseUrl;
    const put = await fetch(`${base}/api/specimens/seg3?filename=seg3.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(segmentation()),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('edit-labels-inplace');
    // The labels are not the room's entry (the page's own request shows that one): the scene's layers load them.
    const layers = [
      { id: 'seg', source: { specimen: 'seg3' }, kind: 'labels', mode: 'volume' },
      { id: 'entry', source: { specimen: 'seg3' }, kind: 'labels', mode: 'volume', opacity: 0 },
    ];
    const json = { 'content-type': 'application/json' };
    const scene = await fetch(`${base}/api/rooms/${room}/scene`, { method: 'PUT', headers: json, body: JSON.stringify({ layers }) });
    expect(scene.status).toBe(200);
    const active = await fetch(`${base}/api/rooms/${room}/layers/entry`, { method: 'PATCH', headers: json, body: '{"active":true}' });
    expect(active.status).toBe(200);
    const page = await openPage(session.browser, session.contexts, `${base}/${viewerQuery({ room, follow: true })}`);
    await waitForDrawn(page.page);
    await page.page.waitForFunction(() => document.querySelector('[data-testid=edit-list]') !== null, null, { timeout: STATE_WAIT_MS });
    const reads: string[] = [];
    page.page.on('request', (request) => {
      if (/\/api\/blobs\/|\/layers\/seg\/(data|labels)/.test(request.url())) reads.push(request.url());
    });
    const painted = await fetch(`${base}/api/rooms/${room}/layers/seg/edits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ op: 'paint', label: 9, center: [16, 16, 16], radius: 4 }),
    });
    expect(painted.status).toBe(201);
    await edits(page.page, 1);
    // The scene names the edited version as the layer's result once its id is worked out.
    await waitFor(async () => {
      const named = (await (await fetch(`${base}/api/rooms/${room}/scene`)).json()) as { layers: { id: string; result?: { data_url: string } }[] };
      return named.layers.find((layer) => layer.id === 'seg')?.result?.data_url.endsWith('version=1') || undefined;
    }, 'the scene naming version 1');
    await page.page.waitForTimeout(1500);
    // The edit's own read, and nothing more: the version named by the scene was already drawn.
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('/layers/seg/labels?version=1');
    expect(page.errors).toEqual([]);
  });

  it('splits a segment from an emulated headset (IWER) by two triggers; a page draws it, its undo restores the page', async () => {
    const base = session.host.baseUrl;
    const put = await fetch(`${base}/api/specimens/seg2?filename=seg2.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(segmentation()),
    });
    expect(put.status).toBe(201);
    const room = freshRoom('edit-labels-vr');
    const scene = await fetch(`${base}/api/rooms/${room}/scene`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ layers: [{ id: 'seg', source: { specimen: 'seg2' }, kind: 'labels', mode: 'volume' }] }),
    });
    expect(scene.status).toBe(200);
    const link = `${base}/${viewerQuery({ room, follow: true })}`;
    const desk = await openPage(session.browser, session.contexts, link);
    const vr = await openHeadsetPage(session.browser, session.contexts, link);
    await Promise.all([waitForDrawn(desk.page), waitForDrawn(vr.page)]);
    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr.page, 5);
    // The headset's tools are the page's (the presenting canvas covers the page: its buttons are
    // pressed by their click events).
    const press = (selector: string) => vr.page.locator(selector).dispatchEvent('click');
    await press('[data-edit-tool=split]');
    // Two seeds on segment 2 (x ≥ 16), at its face towards +z, one low in y and one high.
    const aim = (x: number, y: number) =>
      vr.page.evaluate(([px, py]) => [window.vitrineVr!.inRoom([px!, py!, 60]), window.vitrineVr!.inRoom([px!, py!, 16])], [x, y] as const);
    const [fromLow, atLow] = await aim(24, 6);
    // The page draws the headset's hands: its picture is compared with the controller held where it was.
    const held = async (): Promise<Buffer> => {
      await aimAt(vr.page, fromLow!, atLow!);
      await desk.page.waitForTimeout(1500);
      return middle(desk.page);
    };
    const before = await held();
    await pullTriggerAt(vr.page, fromLow!, atLow!);
    await press('[data-testid=edit-split-next]');
    const [fromHigh, atHigh] = await aim(24, 26);
    await pullTriggerAt(vr.page, fromHigh!, atHigh!);
    await press('[data-testid=edit-split-apply]');
    await Promise.all([edits(desk.page, 1), edits(vr.page, 1)]);
    await shot(desk.page, 'edit-labels-split-desk');
    expect(await desk.page.textContent('[data-testid=edit-list] li')).toMatch(/#\d+ split by /);
    const listed = (await (await fetch(`${base}/api/rooms/${room}/layers/seg/edits`)).json()) as { edits: { segments: { new: number[] } }[] };
    expect(listed.edits[0]!.segments.new).toEqual([3]);
    expect((await held()).equals(before)).toBe(false);
    await press('[data-testid=edit-undo]');
    await Promise.all([edits(desk.page, 2), edits(vr.page, 2)]);
    const after = await held();
    await shot(desk.page, 'edit-labels-split-undone-desk');
    expect(after.equals(before)).toBe(true);
    expect([...desk.errors, ...vr.errors]).toEqual([]);
  });
});
