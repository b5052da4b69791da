/**
 * Who is here in the web viewer, in Debian's Chromium. A page following a room lists everyone
 * following it (another page, a notebook naming itself) with their kinds, learnt from the
 * room's `presence` events; a page names itself with `name=` in its address, and a page in VR is
 * listed as a headset; one that leaves is gone from the list; nothing is polled. Two pages
 * in one room each draw the other's camera and mouse ray (read through `window.vitrinePresence`
 * and looked at in a screenshot); "Follow" on one page makes its camera track the other's until
 * the user moves the camera; a page that closes is gone from the other's stage. In a headset (Meta's IWER
 * emulating a Quest 3) the other peers' heads and hands stand where they are relative to the
 * specimen, and a page sees the headset's head. Screenshots land in os.tmpdir()/vitrine-browser-shots.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { PresenceProbeState } from '../../viewer/presence/presence-probe.ts';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { browserAndHost } from './browser-host.ts';
import { DRAW_SCALE, openHeadsetPage, openPage, shot, waitForDrawn } from './browser-session.ts';

const session = browserAndHost([], DRAW_SCALE);
const HERE = '[data-testid=who-is-here]';
type Vec = [number, number, number];

/** A page of the viewer at `query`. */
async function open(query: string): Promise<Page> {
  return (await openPage(session.browser, session.contexts, `${session.host.baseUrl}/${query}`)).page;
}

/** Waits until the list names exactly `text` (`Here: ` and each peer's name and kind; its Follow buttons aside). */
async function waitForHere(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    ([sel, want]) => {
      const names = [...document.querySelectorAll(`${sel} .here-name`)].map((name) => name.textContent);
      return `Here: ${names.join(', ')}` === want;
    },
    [HERE, text] as const,
    { timeout: STATE_WAIT_MS },
  );
}

const presence = (page: Page): Promise<PresenceProbeState> => page.evaluate(() => window.vitrinePresence!.state());

/**
 * Waits until `test` holds in the page (it reads `window.vitrinePresence` itself; `arg` is
 * handed to it there), and returns the probe then; a wait that fails says what the probe read.
 */
async function waitPresence<A>(page: Page, what: string, test: (arg: A) => boolean, arg: A): Promise<PresenceProbeState> {
  try {
    await page.waitForFunction(test as (given: unknown) => boolean, arg as unknown, { timeout: STATE_WAIT_MS });
  } catch (error) {
    throw new Error(`never ${what}: the probe reads ${JSON.stringify(await presence(page))} (${(error as Error).message})`);
  }
  return presence(page);
}

/** The page's live socket is open and it knows which peer it is. */
const socketOpen = (): boolean => window.vitrinePresence?.state().socket === 'open' && window.vitrinePresence.state().self !== null;

/** Turns the wheel over the stage: `delta` 1400 takes the camera about twice as far out, -700 about a third nearer. */
async function zoom(page: Page, delta: number): Promise<void> {
  const canvas = (await page.locator('canvas.stage-canvas').boundingBox())!;
  await page.mouse.move(canvas.x + canvas.width / 2, canvas.y + canvas.height / 2);
  await page.mouse.wheel(0, delta);
  await page.waitForSelector('canvas.stage-canvas[data-camera=still]');
}

const near = (a: Vec, b: Vec, tolerance: number): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

describe('who is here', () => {
  it('lists the room’s followers with their kinds as they come and go', async () => {
    const room = freshRoom('here');
    const first = await open(viewerQuery({ specimen: 'shape', room, follow: true }));
    await first.waitForSelector('.follow[data-stream=open]');
    await waitForHere(first, 'Here: anonymous (page)');
    // A page names itself with `name=` in its address, which it keeps as its address changes.
    const second = await open(`${viewerQuery({ specimen: 'shape', room, follow: true })}&name=bob`);
    await waitForHere(first, 'Here: anonymous (page), bob (page)');
    await waitForHere(second, 'Here: anonymous (page), bob (page)');
    expect(new URL(second.url()).searchParams.get('name')).toBe('bob');
    const notebook = await openStream(`${session.host.baseUrl}/api/rooms/${room}/events?name=nb&kind=notebook`);
    await waitForHere(first, 'Here: anonymous (page), bob (page), nb (notebook)');
    // Only the other page has a camera to follow: neither this page itself nor the notebook.
    expect(await first.locator(`${HERE} [data-testid=follow-peer]`).count()).toBe(1);
    notebook.close();
    await second.close();
    await waitForHere(first, 'Here: anonymous (page)');
    expect(await first.locator(HERE).isVisible()).toBe(true);
  });

  it('draws each other page’s camera and ray; Follow tracks one until the user moves the camera', async () => {
    const link = `${session.host.baseUrl}/${viewerQuery({ specimen: 'shape', room: freshRoom('peers'), follow: true })}`;
    const a = await openPage(session.browser, session.contexts, link);
    const b = await openPage(session.browser, session.contexts, link);
    await Promise.all([waitForDrawn(a.page), waitForDrawn(b.page)]);
    const aId = (await waitPresence(a.page, 'opened its live socket', socketOpen, null)).self!;
    await waitPresence(b.page, 'opened its live socket', socketOpen, null);
    // Both framed the shape alike: A's camera is at B's eye, where its frustum is not drawn.
    const atEye = (id: string): boolean => window.vitrinePresence!.state().peers.some((p) => p.id === id && p.head !== null && !p.headShown);
    await waitPresence(b.page, 'knew A’s camera, at its own eye', atEye, aId);

    // B steps back (a wheel turn: a drag's glide would cost a software renderer hundreds of frames):
    // the room shares its camera and A takes it; A then frames the shape again, which it does not
    // share, so B sees A's camera between it and the shape, looking the same way, and A's ray.
    await zoom(b.page, 1600);
    const atCamera = (at: Vec): boolean => window.vitrinePresence!.state().camera.position.every((v, i) => Math.abs(v - at[i]!) < 1e-3);
    await waitPresence(a.page, 'took the room’s camera', atCamera, (await presence(b.page)).camera.position);
    await a.page.click('[data-testid=reset-camera]');
    const canvas = (await a.page.locator('canvas.stage-canvas').boundingBox())!;
    await a.page.mouse.move(canvas.x + canvas.width * 0.4, canvas.y + canvas.height * 0.38);
    const aCamera = (await presence(a.page)).camera.position;
    const seen = await waitPresence(
      b.page,
      'drew A’s camera where it is, with its ray',
      ([id, at]) =>
        window.vitrinePresence!.state().peers.some(
          (p) => p.id === id && p.pointer !== null && p.headShown && p.head?.every((v, i) => Math.abs(v - at[i]!) < 1e-3),
        ),
      [aId, aCamera] as [string, Vec],
    );
    expect(near(seen.camera.position, aCamera, 1e-2)).toBe(false);
    expect(await b.page.locator('canvas.stage-canvas').getAttribute('data-peers')).toBe(aId);
    await shot(b.page, 'peer-presence-camera-and-ray');

    // Follow A: B's camera goes to A's at once, then along with A's as A moves it.
    const follow = b.page.locator(`[data-peer="${aId}"] [data-testid=follow-peer]`);
    await follow.click();
    expect(await follow.textContent()).toBe('Following');
    await waitPresence(b.page, 'went to A’s camera', atCamera, aCamera);
    // A's frustum would sit at B's own eye: it is not drawn while B follows A.
    expect((await presence(b.page)).peers.find((p) => p.id === aId)?.visible).toBe(false);
    await zoom(a.page, -700);
    const turned = (await presence(a.page)).camera.position;
    expect(near(turned, aCamera, 1e-2)).toBe(false);
    const following = await waitPresence(b.page, 'followed A’s camera', atCamera, turned);
    const aForward = (await presence(a.page)).camera.forward;
    expect(near(following.camera.forward, aForward, 1e-3)).toBe(true);
    await shot(b.page, 'peer-presence-following');

    // B moves its own camera: following ends and the button says so.
    await zoom(b.page, 300);
    await b.page.waitForSelector(`[data-peer="${aId}"] [data-testid=follow-peer][data-state=ended]`);
    expect(await follow.textContent()).toBe('Follow');
    expect(await follow.getAttribute('title')).toContain('you moved the camera');
    const ended = await presence(b.page);
    expect(ended.following).toMatchObject({ peer: aId, state: 'ended' });
    expect(ended.peers.find((p) => p.id === aId)?.visible).toBe(true);

    // A leaves: it is gone from B's stage.
    await a.page.close();
    await b.page.waitForSelector('canvas.stage-canvas[data-peers=""]');
    expect([...a.errors, ...b.errors]).toEqual([]);
  });

  it('shows a headset the others’ heads and hands, and a page the headset’s head', async () => {
    const room = freshRoom('peers-vr');
    const link = `${session.host.baseUrl}/${viewerQuery({ specimen: 'shape', room, follow: true })}`;
    const desk = await openPage(session.browser, session.contexts, link);
    const vr = await openHeadsetPage(session.browser, session.contexts, link);
    await waitForDrawn(vr.page);
    await vr.page.getByRole('button', { name: 'Enter VR' }).click();
    await vr.page.waitForFunction(() => window.vitrineVr?.state().firstSpecimenFrameMs != null, null, { timeout: STATE_WAIT_MS });
    const vrId = (await waitPresence(vr.page, 'opened its live socket', socketOpen, null)).self!;
    // A page in VR is a headset to the others, listed once (no page left behind).
    await waitForHere(desk.page, 'Here: anonymous (page), anonymous (headset)');

    // Another headset, straight on the live socket: it stands behind the specimen and to the right,
    // facing the user, its hands out in front. Its pose is said in the room's frame: where the specimen was placed.
    const { position: placed, scale } = await vr.page.evaluate(() => window.vitrineVr!.state());
    const toRoom = (world: Vec): Vec => world.map((v, i) => (v - placed[i]!) / scale) as Vec;
    const facing: [number, number, number, number] = [0, 1, 0, 0];
    const headAt: Vec = [0.55, 1.75, -1.7];
    const peer = new WebSocket(`${session.host.baseUrl.replace('http', 'ws')}/api/rooms/${room}/live?name=quest&kind=headset`);
    const welcome = await new Promise<{ peer: { id: string } }>((resolve, reject) => {
      peer.once('message', (data) => resolve(JSON.parse(String(data))));
      peer.once('error', reject);
    });
    const place = (at: Vec) => ({ position: toRoom(at), orientation: facing });
    peer.send(JSON.stringify({ head: place(headAt), hands: { left: place([0.85, 1.45, -1.4]), right: place([0.3, 1.45, -1.4]) } }));
    const seen = await waitPresence(
      vr.page,
      'drew the other headset’s head and hands',
      (id) => window.vitrinePresence!.state().peers.some((p) => p.id === id && p.head !== null && p.hands.length === 2),
      welcome.peer.id,
    );
    expect(near(seen.peers.find((p) => p.id === welcome.peer.id)!.head!, headAt, 1e-3)).toBe(true);
    await shot(vr.page, 'peer-presence-headset-sees-peer');

    // The page sees the headset's head (and its hands: the emulated controllers are tracked).
    const headSeen = (id: string): boolean => window.vitrinePresence!.state().peers.some((p) => p.id === id && p.head !== null);
    const fromDesk = await waitPresence(desk.page, 'drew the headset’s head', headSeen, vrId);
    expect(fromDesk.peers.find((p) => p.id === vrId)!.hands).toEqual(['left', 'right']);
    await shot(desk.page, 'peer-presence-page-sees-headset');
    peer.close();
    await desk.page.waitForFunction((id) => !window.vitrinePresence!.state().peers.some((p) => p.id === id), welcome.peer.id, { timeout: STATE_WAIT_MS });
    expect([...desk.errors, ...vr.errors]).toEqual([]);
  });
});
