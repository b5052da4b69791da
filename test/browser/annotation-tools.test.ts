/**
 * The viewer's annotation tools: two pages following one room. A point placed
 * by a click on the static cube lies on its surface and shows on the other page; a box placed
 * there by two clicks shows back on the first with the volume the host measured; a ruler
 * across a slice of a published scan (spacing 2, 1, 1 in um) joins two voxel centres, and the
 * page shows the length the host measured in um (the unit of what it shows, as the room has no entry);
 * a point on the scan ray marched lies on a voxel centre. A label edited after a peer changed the mark
 * is refused and the page says so and shows the peer's label; a removal reaches the other
 * page; a page that stops following keeps the list it read. In a room whose scene moves the
 * cube, a point is sent in the cube layer's frame. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationList } from '../../core/wire/scene-types.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openPage, shot, waitForText } from './browser-session.ts';

const session = browserAndHost([], DRAW_SCALE);
const room = freshRoom('marks');

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const response = await fetch(`${session.host.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? null : await response.json()) as T;
}

const marks = async (): Promise<Annotation[]> => (await api<AnnotationList>('GET', `/api/rooms/${room}/annotations`)).annotations;
const row = (kind: string): string => `[data-testid=mark-row][data-kind=${kind}]`;
/** The measurement's words as the page writes them (4 significant digits). */
const words = (what: string, value: number, unit: string): string => `${what} ${Number(value.toPrecision(4))} ${unit}`;

/** Waits until the page shows its subject drawn, its camera at rest (clicks land where they aim) and `count` marks. */
async function ready(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
      if (!canvas || canvas.dataset.camera !== 'still') return false;
      return canvas.dataset.drawn === canvas.dataset.shows && Number(canvas.dataset.shows) > 0 && Number(canvas.dataset.marks ?? -1) === n;
    },
    count,
  );
}

/** Clicks the stage at a share of its size from its top left corner. */
async function clickStage(page: Page, x: number, y: number): Promise<void> {
  const box = (await page.locator('canvas.stage-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width * x, box.y + box.height * y);
}

const tool = (page: Page, name: string): Promise<void> => page.click(`[data-testid=annotations] [data-tool=${name}]`);

describe('annotation tools', () => {
  it('places points, boxes and rulers that every page of the room shows, with the host’s measurements', async () => {
    const scan = await fetch(`${session.host.baseUrl}/api/specimens/scan?filename=scan.npy&spacing=2,1,1&unit=um`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes([6, 12, 12])),
    });
    expect(scan.status).toBe(201);
    const link = (specimen: string): string => `${session.host.baseUrl}/${viewerQuery({ specimen, room, follow: true })}`;
    const a = await openPage(session.browser, session.contexts, link('cube'));
    const b = await openPage(session.browser, session.contexts, link('cube'));
    await Promise.all([ready(a.page, 0), ready(b.page, 0)]);

    // A point on the cube (its faces lie at ±0.5), labelled as the toolbar says.
    await tool(a.page, 'point');
    await a.page.fill('[data-testid=mark-new-label]', 'corner');
    await clickStage(a.page, 0.5, 0.5);
    await Promise.all([ready(a.page, 1), ready(b.page, 1)]);
    const [point] = await marks();
    expect(point).toMatchObject({ kind: 'point', label: 'corner' });
    expect(point!.layer).toBeUndefined();
    expect(Math.max(...point!.points[0]!.map(Math.abs))).toBeCloseTo(0.5, 4);
    expect(await b.page.inputValue(`${row('point')} [data-testid=mark-label]`)).toBe('corner');
    await shot(a.page, 'annotations-point-a');

    // A box by two clicks on the other page (a corner on the cube's top face, the other on its
    // right face: two clicks on one face would make a flat box), back on the first with its volume.
    await tool(b.page, 'box');
    await clickStage(b.page, 0.47, 0.3);
    await waitForText(b.page, '[data-testid=mark-status]', 'Click the opposite corner (Escape to start again).');
    await clickStage(b.page, 0.72, 0.6);
    await Promise.all([ready(a.page, 2), ready(b.page, 2)]);
    const box = (await marks()).find((mark) => mark.kind === 'box')!;
    expect(box.points[0]![1]).toBeCloseTo(0.5, 4);
    expect(box.points[1]![0]).toBeCloseTo(0.5, 4);
    expect(box.volume).toBeGreaterThan(0.01);
    await waitForText(a.page, `${row('box')} [data-testid=mark-measure]`, `volume ${Number(box.volume!.toPrecision(4))}`);
    await shot(b.page, 'annotations-box-b');

    // A ruler across the scan's slice: two voxel centres (x, y whole, z a multiple of 2), in um.
    await a.page.goto(link('scan'));
    await ready(a.page, 2);
    // The room's camera is the cube's (a following page takes it): framed on the scan again.
    await a.page.click('[data-testid=reset-camera]');
    await ready(a.page, 2);
    await tool(a.page, 'line');
    await clickStage(a.page, 0.4, 0.45);
    await clickStage(a.page, 0.6, 0.55);
    await Promise.all([ready(a.page, 3), ready(b.page, 3)]);
    const ruler = (await marks()).find((mark) => mark.kind === 'line')!;
    for (const [x, y, z] of ruler.points) {
      expect([x, y, z / 2].every((v) => Math.abs(v - Math.round(v)) < 1e-4)).toBe(true);
    }
    expect(ruler.points[1]![0]).toBeGreaterThan(ruler.points[0]![0] + 1);
    expect(ruler.length).toBeCloseTo(Math.hypot(...[0, 1, 2].map((i) => ruler.points[1]![i]! - ruler.points[0]![i]!)), 6);
    await waitForText(a.page, `${row('line')} [data-testid=mark-measure]`, words('length', ruler.length!, 'um'));
    // The other page shows a cube (no unit, and the room has no entry to name one): the number alone.
    await waitForText(b.page, `${row('line')} [data-testid=mark-measure]`, `length ${Number(ruler.length!.toPrecision(4))}`);
    await shot(a.page, 'annotations-ruler-a');

    // The scan ray marched: a point goes on the first visible sample under the click, a voxel centre.
    await a.page.selectOption('select[data-axis=view]', 'volume');
    await tool(a.page, 'point');
    await a.page.fill('[data-testid=mark-new-label]', 'sample');
    await clickStage(a.page, 0.5, 0.5);
    await Promise.all([ready(a.page, 4), ready(b.page, 4)]);
    const sample = (await marks()).find((mark) => mark.label === 'sample')!;
    const [x, y, z] = sample.points[0]!;
    expect([x, y, z / 2].every((v) => Math.abs(v - Math.round(v)) < 1e-4 && v >= 0 && v <= 11)).toBe(true);
    await shot(a.page, 'annotations-volume-a');
    // What follows is about the list, not the picture: back to slices, which software WebGL
    // draws in a fraction of the time of a ray-marched frame (the list's changes redraw the stage).
    await a.page.selectOption('select[data-axis=view]', 'slices');

    // A label edited after a peer changed the mark: refused, said, and the peer's label shown.
    const label = `${row('line')} [data-testid=mark-label]`;
    await a.page.focus(label);
    await a.page.fill(label, 'mine');
    await api('PATCH', `/api/rooms/${room}/annotations/${ruler.id}`, { label: 'theirs' });
    await a.page.waitForSelector(`${row('line')}[data-version="2"]`);
    await a.page.press(label, 'Enter');
    await a.page.waitForFunction(() => document.querySelector('[data-testid=mark-status]')?.textContent?.startsWith('Someone changed this mark first'));
    await a.page.waitForFunction((sel) => document.querySelector<HTMLInputElement>(sel)?.value === 'theirs', label);
    // Edited on what it shows now, the label is saved.
    await a.page.fill(label, 'crack');
    await a.page.press(label, 'Enter');
    await b.page.waitForFunction((sel) => document.querySelector<HTMLInputElement>(sel)?.value === 'crack', label);
    await shot(b.page, 'annotations-all-b');

    // A removal on one page leaves the other.
    await a.page.click(`${row('box')} [data-testid=mark-remove]`);
    await ready(b.page, 3);
    expect(await b.page.locator(row('box')).count()).toBe(0);
    expect((await marks()).map((mark) => mark.kind).sort()).toEqual(['line', 'point', 'point']);
    // A page that stops following holds no stream: it keeps the list as it reads it, and says so.
    expect(await a.page.locator('[data-testid=marks-unfollowed]').isHidden()).toBe(true);
    await a.page.click('[data-testid=follow-room]');
    await a.page.waitForSelector('[data-testid=marks-unfollowed]', { state: 'visible' });
    await ready(a.page, 3);

    // In a room whose scene moves the cube 3 along x, a point picked on it is sent in its layer's frame.
    const moved = freshRoom('marks-scene');
    const affine = [1, 0, 0, 3, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
    await api('PUT', `/api/rooms/${moved}/scene`, { layers: [{ id: 'moved', source: { specimen: 'cube' }, affine }], active: 'moved' });
    await b.page.goto(`${session.host.baseUrl}/${viewerQuery({ specimen: 'cube', room: moved, follow: true })}`);
    await b.page.waitForFunction(() => document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn === 'moved');
    await ready(b.page, 0);
    await tool(b.page, 'point');
    await clickStage(b.page, 0.5, 0.5);
    await ready(b.page, 1);
    const [inLayer] = (await api<AnnotationList>('GET', `/api/rooms/${moved}/annotations`)).annotations;
    expect(inLayer!.layer).toBe('moved');
    expect(Math.max(...inLayer!.points[0]!.map(Math.abs))).toBeCloseTo(0.5, 4);
    await shot(b.page, 'annotations-layer-b');
    expect([...a.errors, ...b.errors]).toEqual([]);
  });
});
