/**
 * The annotation tools in VR, in Debian's Chromium with Meta's IWER emulating a Quest 3: on a
 * published scan with anisotropic spacing (2, 1, 1 um), the Ruler chosen on the headset's panel
 * (and so on the page's toolbar), two triggers with the controller's ray on two voxels of a
 * slice place a ruler whose ends are those voxels' centres, and the host measures it exactly as
 * it measures a line posted with the same points; the page lists it with its length. A point
 * placed by the trigger shows on a second, desktop page following the room. The headset's panel
 * lists the room's newest marks with who made each: a mark a user adds with a token names that
 * user there, whatever its body said, and the headset's own (made without a token) name nobody.
 * Screenshots of the emulated session land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationList } from '../../core/wire/scene-types.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage as openHeadset, openPage, shot, waitForText, type OpenedPage } from './browser-session.ts';
import { framesPass, pressPanel, pullTriggerAt, type Vec } from './vr-controller.ts';

const people = await peopleDir(['ada']);
const session = browserAndHost(['--data-dir', people.dir], DRAW_SCALE);

/** A request to the host, as `user` (with that user's token) when given. */
async function api<T>(method: string, path: string, body?: unknown, user?: string): Promise<T> {
  const headers: Record<string, string> = {
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(user ? bearer(people.tokens[user]!) : {}),
  };
  const response = await fetch(`${session.host.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A page with IWER's emulated Quest 3 installed before its scripts run. */
const openHeadsetPage = (url: string): Promise<OpenedPage> => openHeadset(session.browser, session.contexts, url);

/** Waits until the page's stage draws `count` marks of the room's list. */
const marksDrawn = (page: Page, count: number): Promise<unknown> =>
  page.waitForFunction((n) => Number(document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.marks ?? -1) === n, count, {
    timeout: STATE_WAIT_MS,
  });

/** Where the controller stands to aim at voxel column (x, y) of the scan: in front of it, looking down -z. */
async function aimAtColumn(page: Page, x: number, y: number): Promise<{ from: Vec; at: Vec }> {
  const [at, from] = await page.evaluate(([px, py]) => [window.vitrineVr!.inRoom([px!, py!, 5]), window.vitrineVr!.inRoom([px!, py!, 30])], [x, y] as const);
  return { from, at };
}

/** Pulls the trigger on the panel's button for annotation tool `tool`: the page's toolbar shows it chosen. */
async function chooseTool(page: Page, tool: 'none' | 'point' | 'line' | 'box'): Promise<void> {
  const chosen = `[data-testid=annotations] [data-tool=${tool}][aria-pressed=true]`;
  const where = () => page.evaluate((t) => window.vitrineVr!.markToolPoint(t), tool);
  await pressPanel(page, where, async () => (await page.$(chosen)) !== null, `the ${tool} button`);
}

/** Moves both controllers low and off the panel (screenshots then show the panel's buttons). */
async function holdAside(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Pose = { position: { set(...a: number[]): void } };
    const { left, right } = (window as unknown as { xrDevice: { controllers: { left: Pose; right: Pose } } }).xrDevice.controllers;
    left.position.set(-0.05, 0.7, -0.25);
    right.position.set(0.35, 0.8, -0.3);
  });
  await framesPass(page, 5);
}

const measure = '[data-testid=mark-row][data-kind=line] [data-testid=mark-measure]';

describe('annotation tools in VR (IWER, emulated Quest 3)', () => {
  it('places a ruler on two voxels and a point with the controller; the host measures, the room sees them', async () => {
    const scan = await fetch(`${session.host.baseUrl}/api/specimens/scan?filename=scan.npy&spacing=2,1,1&unit=um`, {
      method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(npyBytes([6, 12, 12])),
    });
    expect(scan.status).toBe(201);
    const room = freshRoom('vr-marks');
    const link = `${session.host.baseUrl}/${viewerQuery({ specimen: 'scan', room, follow: true })}`;
    const vr = await openHeadsetPage(link);
    const desk = await openPage(session.browser, session.contexts, link);
    await Promise.all([marksDrawn(vr.page, 0), marksDrawn(desk.page, 0)]);

    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().presenting === true && window.vitrineVr.state().firstSpecimenFrameMs !== null, null, {
      timeout: STATE_WAIT_MS,
    });
    // The scan's unit is known (looked up once the scan is shown): the panel's scale bar row stands.
    await vr.page.waitForFunction(() => window.vitrineVr!.state().scaleBar?.label.endsWith('um') === true, null, { timeout: STATE_WAIT_MS });
    await framesPass(vr.page, 5);

    // Ruler from the panel: the page's toolbar shows it chosen too.
    await chooseTool(vr.page, 'line');
    // Two columns of voxels off the slices along x and y (those stand at the middle): the ray,
    // straight down -z, meets the z slice first, on voxels (3, 4) and (9, 8).
    const first = await aimAtColumn(vr.page, 3, 4);
    await pullTriggerAt(vr.page, first.from, first.at);
    const second = await aimAtColumn(vr.page, 9, 8);
    await pullTriggerAt(vr.page, second.from, second.at);
    await Promise.all([marksDrawn(vr.page, 1), marksDrawn(desk.page, 1)]);
    const [ruler] = (await api<AnnotationList>('GET', `/api/rooms/${room}/annotations`)).annotations as [Annotation];
    expect(ruler.kind).toBe('line');
    expect(ruler.layer).toBeUndefined();
    const [a, b] = ruler.points as [[number, number, number], [number, number, number]];
    // Voxel centres: x and y whole, z a multiple of the spacing 2, both on the one slice.
    expect([a[0], a[1], b[0], b[1]].map((v) => Number(v.toFixed(6)))).toEqual([3, 4, 9, 8]);
    expect(Math.abs(a[2] / 2 - Math.round(a[2] / 2))).toBeLessThan(1e-6);
    expect(b[2]).toBeCloseTo(a[2], 6);
    // The same two points posted as a line: the host measures the same length (about √52 um).
    const posted = await api<Annotation>('POST', `/api/rooms/${freshRoom('vr-marks-check')}/annotations`, { kind: 'line', points: ruler.points });
    expect(ruler.length).toBe(posted.length);
    expect(ruler.length).toBeCloseTo(Math.hypot(6, 4), 4);
    const words = `length ${Number(ruler.length!.toPrecision(4))} um`;
    await waitForText(vr.page, measure, words);
    await waitForText(desk.page, measure, words);
    await holdAside(vr.page);
    await shot(vr.page, 'vr-marks-ruler');

    // A point by one trigger: on the desktop page following the room too.
    await chooseTool(vr.page, 'point');
    const spot = await aimAtColumn(vr.page, 2, 9);
    await pullTriggerAt(vr.page, spot.from, spot.at);
    await Promise.all([marksDrawn(vr.page, 2), marksDrawn(desk.page, 2)]);
    await desk.page.waitForSelector('[data-testid=mark-row][data-kind=point]');
    const point = (await api<AnnotationList>('GET', `/api/rooms/${room}/annotations`)).annotations.find((mark) => mark.kind === 'point')!;
    expect(point.points[0]!.slice(0, 2).map((v) => Number(v.toFixed(6)))).toEqual([2, 9]);
    await holdAside(vr.page);
    await shot(vr.page, 'vr-marks-point');
    await shot(desk.page, 'vr-marks-desktop');

    // Off hands the trigger back: a trigger on the specimen places nothing.
    await chooseTool(vr.page, 'none');
    await pullTriggerAt(vr.page, spot.from, spot.at);
    expect((await api<AnnotationList>('GET', `/api/rooms/${room}/annotations`)).annotations).toHaveLength(2);

    // A mark a user adds with a token: the panel names the user the host knows, not the body's author.
    const seed = { kind: 'point', points: [[1, 1, 1]], label: 'seed', author: 'mallory' };
    expect(await api<Annotation>('POST', `/api/rooms/${room}/annotations`, seed, 'ada')).toMatchObject({ author: 'ada' });
    await marksDrawn(vr.page, 3);
    await vr.page.waitForFunction(() => window.vitrineVr!.state().marks.length === 3, null, { timeout: STATE_WAIT_MS });
    // Newest first; the headset's own marks were made without a token, so they name nobody.
    expect(await vr.page.evaluate(() => window.vitrineVr!.state().marks)).toEqual([
      { text: 'point - seed', author: 'ada' },
      { text: 'point', author: '' },
      { text: `ruler - ${words}`, author: '' },
    ]);
    await holdAside(vr.page);
    await shot(vr.page, 'vr-marks-authors');
    expect([...vr.errors, ...desk.errors]).toEqual([]);
  });
});
