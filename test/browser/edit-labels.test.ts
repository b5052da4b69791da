/**
 * Editing a segmentation together, in Chromium against a real host. Three people in one room:
 * ada's page merges two segments by two picks, bob's page paints a ball with the brush by a
 * click, and cy, in an emulated headset (IWER), splits a segment with the panel's tools and two
 * triggers on its voxels. Each of the three sees every edit drawn: four regions of the
 * segmentation's front face are compared by pixels on every page, and each edit changes its
 * own region only. Each lists the edits with who made them. Then each undoes their own (Ctrl-Z
 * on the pages, the panel's Undo in the headset), oldest first, so each undo passes over later
 * edits of the others: the region comes back exactly, on all three. Beside it: a layer's edit
 * drawn in place, not by loading the edited version whole; and in a closed room, a page of
 * someone who may only read it offers no segmentation or mark tool that writes, while an
 * editor's offers them all. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS, waitFor } from '../helpers/wait-for.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage, openPage, shot, waitForDrawn, type OpenedPage } from './browser-session.ts';
import { aimAt, framesPass, pressPanel, pullTriggerAt, raysParked, type Vec } from './vr-controller.ts';

const people = await peopleDir(['ada', 'bob', 'cy']);
const session = browserAndHost(['--data-dir', people.dir], DRAW_SCALE);
const N = 32;
const JSON_TYPE = { 'content-type': 'application/json' };
/** The segmentation as a room's labels layer. */
const SEG_LAYER = { id: 'seg', source: { specimen: 'seg' }, kind: 'labels', mode: 'volume' };

/** Three segments, uint8 [z, y, x]: 1 the lower left quarter (x < 16, y < 16), 2 the upper left, 3 the right half. */
function segmentation(): Buffer {
  const data = new Uint8Array(N ** 3);
  for (let z = 0; z < N; z++) {
    for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) data[(z * N + y) * N + x] = x >= N / 2 ? 3 : y < N / 2 ? 1 : 2;
  }
  return npyBytes({ descr: '|u1', shape: [N, N, N], data });
}

beforeAll(async () => {
  const put = await fetch(`${session.host.baseUrl}/api/specimens/seg?filename=seg.npy&role=labels`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(segmentation()),
  });
  expect(put.status).toBe(201);
});

/** A fresh room whose scene is `layers` (the segmentation as layer `seg`, unless told). */
async function labelsRoom(prefix: string, layers: object[] = [SEG_LAYER]): Promise<string> {
  const room = freshRoom(prefix);
  const scene = await fetch(`${session.host.baseUrl}/api/rooms/${room}/scene`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify({ layers }) });
  expect(scene.status).toBe(200);
  return room;
}

/** A link to `room`, following it, signed in as `user` when given. */
function roomLink(room: string, user?: string): string {
  return `${session.host.baseUrl}/${viewerQuery({ room, follow: true, extra: user ? { token: people.tokens[user]! } : {} })}`;
}

/** Waits until the page lists `count` edits and has drawn since. */
async function edits(page: Page, count: number): Promise<void> {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=edit-list] li').length === n, count, { timeout: STATE_WAIT_MS });
  await waitForDrawn(page);
  await page.waitForTimeout(300);
}

/**
 * The regions compared, on the front face (z = 31): each is where one edit lands (the merge
 * turns segment 2, the upper left, into 1; the brush paints in 1, the lower left; the split
 * gives the upper right of 3 a new id) and `still`, the lower right, which none changes.
 */
const REGIONS = ['merge', 'paint', 'split', 'still'] as const;
type Region = (typeof REGIONS)[number];

/**
 * Each region's middle on a page's stage, as fractions of the canvas at its first framing
 * (the test reads the voxel there off the page's readout before trusting it), and in the
 * headset's view, in pixels of its window (the panel is to the left of the segmentation).
 */
const ON_PAGE: Record<Region, [number, number]> = { merge: [0.22, 0.43], paint: [0.245, 0.65], split: [0.44, 0.48], still: [0.43, 0.74] };
const IN_HEADSET: Record<Region, [number, number]> = { merge: [287, 287], paint: [287, 372], split: [370, 287], still: [370, 372] };

/** The voxel column ([x, y] of the front face) each region must lie over, as far as 3 voxels from any other segment. */
const OVER: Record<Region, (x: number, y: number) => boolean> = {
  merge: (x, y) => x <= 12 && y >= 19,
  paint: (x, y) => x <= 12 && y <= 12,
  split: (x, y) => x >= 19 && y >= 20,
  still: (x, y) => x >= 19 && y <= 12,
};

interface Party {
  name: string;
  /** What its screenshots are called. */
  id: string;
  opened: OpenedPage;
  /** A region's middle in the page's window (CSS pixels). */
  at(region: Region): Promise<[number, number]>;
  /** Half the side of a region's square (CSS pixels). */
  half: number;
}

type Pictures = Record<Region, Buffer>;

/** A screenshot of the party's page (kept as `edit-labels-<step>-<id>.png`), cut into its regions' squares of pixels. */
async function pictures(party: Party, step: string): Promise<Pictures> {
  const { page } = party.opened;
  const png = PNG.sync.read(await readFile(await shot(page, `edit-labels-${step}-${party.id}`)));
  const scale = png.width / page.viewportSize()!.width;
  const taken = {} as Pictures;
  for (const region of REGIONS) {
    const [x, y] = await party.at(region);
    const [left, top, side] = [x - party.half, y - party.half, 2 * party.half].map((v) => Math.round(v * scale)) as [number, number, number];
    const rows = Array.from({ length: side }, (_, row) => png.data.subarray(((top + row) * png.width + left) * 4, ((top + row) * png.width + left + side) * 4));
    taken[region] = Buffer.concat(rows);
  }
  return taken;
}

describe('editing labels together', () => {
  it('merges on one page, paints on another, splits in a headset: each draws all three, and undo gives every region back', async () => {
    const base = session.host.baseUrl;
    const room = await labelsRoom('edit-labels-three');
    const [a, b, vr] = await Promise.all([
      openPage(session.browser, session.contexts, roomLink(room, 'ada')),
      openPage(session.browser, session.contexts, roomLink(room, 'bob')),
      openHeadsetPage(session.browser, session.contexts, roomLink(room, 'cy')),
    ]);
    await Promise.all([waitForDrawn(a.page), waitForDrawn(b.page), waitForDrawn(vr.page)]);
    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    await framesPass(vr.page, 5);

    const stageAt = (page: Page) => async (region: Region): Promise<[number, number]> => {
      const box = (await page.locator('canvas.stage-canvas').boundingBox())!;
      const [fx, fy] = ON_PAGE[region];
      return [box.x + box.width * fx, box.y + box.height * fy];
    };
    const pageHalf = 20;
    const parties: Party[] = [
      { name: 'ada', id: 'ada', opened: a, at: stageAt(a.page), half: pageHalf },
      { name: 'bob', id: 'bob', opened: b, at: stageAt(b.page), half: pageHalf },
      { name: 'cy (headset)', id: 'cy', opened: vr, at: async (region) => IN_HEADSET[region], half: 7 },
    ];
    // The pages frame the segmentation alike: each region's middle lies over its part of the front face.
    for (const region of REGIONS) {
      const [x, y] = await parties[0]!.at(region);
      await a.page.mouse.move(x, y);
      const readout = await waitFor(async () => {
        const text = await a.page.textContent('[data-testid=value-readout]');
        return /label \d+ at x \d+, y \d+, z 31/.test(text ?? '') ? text! : undefined;
      }, `the voxel under the ${region} region`);
      const [, vx, vy] = /x (\d+), y (\d+)/.exec(readout)!;
      expect(OVER[region](Number(vx), Number(vy)), `the ${region} region's middle is over ${readout}`).toBe(true);
    }
    // A page's pointer is drawn on the others: every picture is taken with the mice off the stages.
    const offStage = async (page: Page): Promise<void> => page.mouse.move(5, 5);
    await offStage(a.page);

    // The headset's hands are drawn on the pages: its controller is held below the segmentation, pointing down, whenever pictures are taken.
    const room3 = (point: Vec) => vr.page.evaluate((p) => window.vitrineVr!.inRoom(p as Vec), point);
    let parkedRays: string[] | null = null;
    const park = async (): Promise<void> => {
      await aimAt(vr.page, await room3([16, -40, 40]), await room3([16, -200, 40]));
      const headset = (await vr.page.evaluate(() => window.vitrinePresence!.state().self))!;
      parkedRays = await raysParked([a.page, b.page], headset, parkedRays);
      expect(parkedRays, 'the parked ray drawn on both pages').not.toContain('null');
      await framesPass(vr.page, 3);
    };
    const everyone = async (count: number): Promise<void> => {
      await Promise.all(parties.map((party) => edits(party.opened.page, count)));
      await park();
    };
    await park();
    const before = new Map<Party, Pictures>();
    for (const party of parties) before.set(party, await pictures(party, 'before'));
    /** Every party's regions: those of `changed` differ from before, the others are as before. */
    const expectRegions = async (changed: Region[], step: string): Promise<void> => {
      for (const party of parties) {
        const now = await pictures(party, step);
        for (const region of REGIONS) {
          expect(now[region].equals(before.get(party)![region]), `${party.name}'s ${region} region after ${step}`).toBe(!changed.includes(region));
        }
      }
    };
    const click = async (page: Page, region: Region): Promise<void> => {
      const [x, y] = await stageAt(page)(region);
      await page.mouse.click(x, y);
    };

    // ada merges segment 2 (the upper left) into 1 (the lower left): two picks.
    await a.page.click('[data-edit-tool=merge]');
    await click(a.page, 'paint');
    await click(a.page, 'merge');
    await offStage(a.page);
    await everyone(1);
    await expectRegions(['merge'], 'merged');

    // bob paints a ball of label 9 in segment 1, away from what the merge changed.
    await b.page.click('[data-edit-tool=brush]');
    await b.page.fill('[data-testid=edit-radius]', '6');
    await b.page.fill('[data-testid=edit-label]', '9');
    await b.page.locator('[data-testid=edit-label]').dispatchEvent('change');
    await b.page.locator('[data-testid=edit-radius]').dispatchEvent('change');
    await click(b.page, 'paint');
    await offStage(b.page);
    await everyone(2);
    await expectRegions(['merge', 'paint'], 'painted');

    // cy splits segment 3 in the headset: Split on the panel, a seed low and a seed high on its front face in two groups, Apply.
    const status = () => vr.page.textContent('[data-testid=edit-status]');
    const press = async (control: 'split' | 'next' | 'apply' | 'undo', taken: () => Promise<boolean>): Promise<void> =>
      pressPanel(vr.page, () => vr.page.evaluate((c) => window.vitrineVr!.editPoint(c), control), taken, `the ${control} control`);
    await press('split', async () => (await vr.page.$('[data-edit-tool=split][aria-pressed=true]')) !== null);
    const seed = async (x: number, y: number): Promise<void> => pullTriggerAt(vr.page, await room3([x, y, 60]), await room3([x, y, 16]));
    await seed(24, 4);
    expect(await status()).toMatch(/^Splitting 3: seeds 1\./);
    await press('next', async () => (await status())?.startsWith('Group 2') === true);
    await seed(24, 28);
    expect(await status()).toMatch(/^Splitting 3: seeds 1 \+ 1\./);
    await press('apply', async () => !(await status())?.startsWith('Splitting'));
    await everyone(3);
    await expectRegions(['merge', 'paint', 'split'], 'split');
    const listed = (await (await fetch(`${base}/api/rooms/${room}/layers/seg/edits`)).json()) as { edits: { segments: { new: number[] } }[] };
    // The new id is one past the largest the layer ever held: the brush's 9.
    expect(listed.edits[2]!.segments.new).toEqual([10]);
    for (const party of parties) {
      const rows = await party.opened.page.locator('[data-testid=edit-list] li').allTextContents();
      expect(rows.map((row) => row.replace(/^#\d+ /, ''))).toEqual(['split by cy', 'paint by bob', 'merge by ada']);
    }

    // Each undoes their own, oldest first: every undo passes over the others' later edits, which changed other voxels.
    await a.page.click('[data-edit-tool=none]');
    await a.page.keyboard.press('Control+z');
    await everyone(4);
    await expectRegions(['paint', 'split'], 'merge-undone');
    await b.page.click('[data-edit-tool=none]');
    await b.page.keyboard.press('Control+z');
    await everyone(5);
    await expectRegions(['split'], 'paint-undone');
    const splitSaid = await status();
    await press('undo', async () => (await status()) !== splitSaid);
    await everyone(6);
    await expectRegions([], 'split-undone');
    for (const party of parties) expect(await party.opened.page.locator('[data-testid=edit-list] li.undone').count()).toBe(3);
    expect([...a.errors, ...b.errors, ...vr.errors]).toEqual([]);
    // Three browsers drawing in software, one in VR: past the suite's five minutes on a loaded machine.
  }, 600_000);

  it("draws a layer's edit in place, not by loading the edited version whole", async () => {
    const base = session.host.baseUrl;
    // The labels are not the room's entry (the page's own request shows that one): the scene's layers load them.
    const room = await labelsRoom('edit-labels-inplace', [SEG_LAYER, { ...SEG_LAYER, id: 'entry', opacity: 0 }]);
    const active = await fetch(`${base}/api/rooms/${room}/layers/entry`, { method: 'PATCH', headers: JSON_TYPE, body: '{"active":true}' });
    expect(active.status).toBe(200);
    const page = await openPage(session.browser, session.contexts, roomLink(room));
    await waitForDrawn(page.page);
    await page.page.waitForFunction(() => document.querySelector('[data-testid=edit-list]') !== null, null, { timeout: STATE_WAIT_MS });
    const reads: string[] = [];
    page.page.on('request', (request) => {
      if (/\/api\/blobs\/|\/layers\/seg\/(data|labels)/.test(request.url())) reads.push(request.url());
    });
    const painted = await fetch(`${base}/api/rooms/${room}/layers/seg/edits`, {
      method: 'POST',
      headers: JSON_TYPE,
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

  it('offers a reader of a closed room no control that writes, and an editor every one', async () => {
    const room = await labelsRoom('edit-labels-readers');
    const access = { editors: ['bob'], viewers: ['cy'], public: 'none' };
    const closing = await fetch(`${session.host.baseUrl}/api/rooms/${room}/access`, {
      method: 'PUT',
      headers: { ...JSON_TYPE, ...bearer(people.tokens.ada!) },
      body: JSON.stringify(access),
    });
    expect(closing.status).toBe(200);
    const [reader, editor] = await Promise.all([
      openPage(session.browser, session.contexts, roomLink(room, 'cy')),
      openPage(session.browser, session.contexts, roomLink(room, 'bob')),
    ]);
    const panel = (page: Page, readOnly: boolean) =>
      page.locator(`[data-testid=edit-panel][data-read-only=${readOnly}]:not([hidden])`).waitFor({ timeout: STATE_WAIT_MS });
    await Promise.all([panel(reader.page, true), panel(editor.page, false), waitForDrawn(reader.page), waitForDrawn(editor.page)]);
    /** Each control of the section that writes: whether it is enabled, and its title. */
    const writers = (page: Page) =>
      page.evaluate(() =>
        [
          ...document.querySelectorAll<HTMLButtonElement | HTMLInputElement>(
            '[data-testid=edit-panel] button:not([data-edit-tool=none]), [data-testid=edit-panel] input',
          ),
        ].map((control) => ({ name: control.dataset.editTool ?? control.textContent, enabled: !control.disabled, title: control.title })),
      );
    const why = 'cy may look at this room but not change it (its owner, ada, can make you an editor).';
    const read = await writers(reader.page);
    // Merge, Split, Brush; radius, label, erase, only over; Next group, Apply split, Undo, Redo.
    expect(read).toHaveLength(11);
    expect(read.filter((control) => control.enabled || control.title !== why)).toEqual([]);
    expect(await reader.page.textContent('[data-testid=edit-status]')).toBe(why);
    expect(await reader.page.locator('button[data-edit-tool=none]').isEnabled()).toBe(true);
    const written = await writers(editor.page);
    expect(written).toHaveLength(11);
    expect(written.filter((control) => !control.enabled || control.title === why)).toEqual([]);
    // The annotation tools that place marks too: Point, Ruler and Box.
    const placers = (page: Page) =>
      page.evaluate(() =>
        [...document.querySelectorAll<HTMLButtonElement>('[data-testid=annotations] button[data-tool]:not([data-tool=none])')].map((button) => ({
          tool: button.dataset.tool,
          enabled: !button.disabled,
          title: button.title,
        })),
      );
    const readerPlacers = await placers(reader.page);
    expect(readerPlacers.map((button) => button.tool)).toEqual(['point', 'line', 'box']);
    expect(readerPlacers.filter((button) => button.enabled || button.title !== why)).toEqual([]);
    expect((await placers(editor.page)).filter((button) => !button.enabled || button.title === why)).toEqual([]);

    // The reader's Ctrl-Z sends nothing; the editor paints, and the reader's page lists it.
    const writes: string[] = [];
    reader.page.on('request', (request) => void (request.method() === 'POST' && writes.push(request.url())));
    await reader.page.keyboard.press('Control+z');
    await editor.page.click('[data-edit-tool=brush]');
    const box = (await editor.page.locator('canvas.stage-canvas').boundingBox())!;
    await editor.page.mouse.click(box.x + box.width * ON_PAGE.paint[0], box.y + box.height * ON_PAGE.paint[1]);
    await Promise.all([edits(editor.page, 1), edits(reader.page, 1)]);
    expect(await reader.page.textContent('[data-testid=edit-list] li')).toMatch(/#\d+ paint by bob/);
    expect(writes.filter((url) => url.includes('/edits'))).toEqual([]);
    await shot(reader.page, 'edit-labels-reader');
    expect([...reader.errors, ...editor.errors]).toEqual([]);
  });
});
