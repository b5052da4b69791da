/**
 * @module browser-session
 * Test helper: launches Debian's Chromium through playwright-core (software WebGL through
 * SwiftShader), and small page helpers that wait for what the user sees.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Request } from 'playwright-core';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { FRAME_EVERY, thinAnimationFrames } from './thin-animation-frames.ts';

/** The browser binary (`VITRINE_CHROMIUM` overrides it). */
export const CHROMIUM_PATH = process.env.VITRINE_CHROMIUM ?? '/usr/bin/chromium';

/** Where screenshots go: a temp folder, never the repository. */
export const SHOTS_DIR = path.join(tmpdir(), 'vitrine-browser-shots');

const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // No GPU here: WebGL runs on SwiftShader, Chromium's software renderer.
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
];

/**
 * Pages ask for reduced motion unless opened with a `reducedMotion` of their own: the viewer's
 * endless animations (the loading pill's spinner, the catalog's shimmering placeholders, a
 * running job's pulse) then run once and stop. Looping, they had the page and the compositor
 * draw 60 frames a second for as long as a load lasted, in software: a page showing them cost
 * Chromium 21 CPU-s a 100 s, against 1 still. No test reads a frame of an animation.
 */
const STILL = { reducedMotion: 'reduce' } as const;

/** Launches Chromium; fails with instructions when it is not installed. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The browser tests need Chromium at ${CHROMIUM_PATH}, which does not exist. ` +
        `Install it with 'apt-get install -y chromium' or point VITRINE_CHROMIUM at a Chromium binary.`,
    );
  }
  await mkdir(SHOTS_DIR, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...BASE_ARGS, ...extraArgs] });
  // Every page's navigations, locators and waits get the suite's deadline, not Playwright's
  // 30 s: a page loads in seconds on a quiet machine and in a minute beside a loaded suite.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ ...STILL, ...options });
    context.setDefaultTimeout(STATE_WAIT_MS);
    const contextPage = context.newPage.bind(context);
    context.newPage = async () => pollWithoutFrames(await contextPage());
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage({ ...STILL, ...options });
    page.setDefaultTimeout(STATE_WAIT_MS);
    return pollWithoutFrames(page);
  };
  return browser;
}

/** How often a page's `waitForFunction` looks again, unless told otherwise. */
const POLL_MS = 50;

/**
 * Makes the page's `waitForFunction` look every {@link POLL_MS} ms rather than at every
 * animation frame (Playwright's default): asking for frames makes a page at rest draw 60 a
 * second for as long as the wait lasts (a page waiting 20 s cost Chromium 2.3 CPU-s more).
 */
function pollWithoutFrames(page: Page): Page {
  const waitForFunction = page.waitForFunction.bind(page);
  page.waitForFunction = ((fn: never, arg: never, options?: { polling?: number | 'raf'; timeout?: number }) =>
    waitForFunction(fn, arg, { polling: POLL_MS, ...options })) as Page['waitForFunction'];
  return page;
}

/** A page opened by {@link openPage}, with what it requested and the errors it threw. */
export interface OpenedPage {
  page: Page;
  requests: Request[];
  errors: string[];
}

/**
 * Opens `url` in a fresh 1440x900 context of `browser`, recording the page's requests and
 * uncaught errors; the context is added to `contexts` for the caller to close.
 */
export async function openPage(browser: Browser, contexts: BrowserContext[], url: string): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const requests: Request[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, requests, errors };
}

/** Saves a screenshot of the page into {@link SHOTS_DIR}. */
export async function shot(page: Page, name: string): Promise<string> {
  const file = path.join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** How long a page may take to reach a state it is on its way to (a job done, a frame drawn, a camera at rest). */
export { STATE_WAIT_MS };

/**
 * Waits until the stage canvas has drawn what it was last given to show (its `data-drawn`
 * reaches `data-shows`): a screenshot taken then shows the content, framed or placed.
 */
export async function waitForDrawn(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const canvas = document.querySelector<HTMLElement>('canvas.stage-canvas');
      return canvas?.dataset.shows !== undefined && canvas.dataset.drawn === canvas.dataset.shows;
    },
    null,
    { timeout: STATE_WAIT_MS },
  );
}

/** Waits until the element matching `selector` has exactly `text` as its trimmed text. */
export async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  try {
    await page.waitForFunction(
      ([sel, want]) => document.querySelector(sel)?.textContent?.trim() === want,
      [selector, text] as const,
      { timeout: STATE_WAIT_MS },
    );
  } catch (error) {
    const actual = await page.evaluate((sel) => document.querySelector(sel)?.textContent?.trim() ?? null, selector);
    throw new Error(`'${selector}' never read '${text}' (it reads ${JSON.stringify(actual)}): ${(error as Error).message}`);
  }
}

/** Waits until the element's `data-state` is one of `states`, and returns it. */
export async function waitForState(page: Page, selector: string, states: string[]): Promise<string> {
  const handle = await page.waitForFunction(
    ([sel, wanted]) => {
      const state = (document.querySelector(sel) as HTMLElement | null)?.dataset.state;
      return state && wanted.includes(state) ? state : null;
    },
    [selector, states] as const,
    { timeout: STATE_WAIT_MS },
  );
  return (await handle.jsonValue()) as string;
}

/** The trimmed text of the first element matching `selector`. */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent())?.trim() ?? '';
}

/** How many frames the stage has drawn so far. */
export async function framesDrawn(page: Page): Promise<number> {
  return Number((await page.locator('canvas.stage-canvas').getAttribute('data-frames')) ?? 0);
}

/** Waits until the stage drew a frame after `since` frames. */
export async function waitForFrame(page: Page, since: number): Promise<void> {
  await page.waitForFunction(
    (n) => Number(document.querySelector<HTMLCanvasElement>('canvas.stage-canvas')?.dataset.frames ?? 0) > n,
    since,
    { timeout: STATE_WAIT_MS },
  );
}

/**
 * Device pixels per CSS pixel for the pages of a file whose checks read no pixel of the stage
 * at a given size (fileBrowser's scale): the page lays out at its window's CSS size as ever
 * (pointer positions, panels, what is in view), while the stage draws, and screenshots hold, a
 * quarter of the pixels. SwiftShader draws every pixel on the CPU, so a frame costs about a
 * quarter too (the two pages of scenes.test.ts: Chromium's CPU fell from 120 to 63 s). Not for
 * what picks by pixels: a mesh's levels of detail follow the drawing buffer's height.
 */
export const DRAW_SCALE = 0.5;

/**
 * The window of a page that wears the emulated headset. IWER draws both eyes into the page's
 * canvas at the window's size, every frame while the session runs, in software here; at
 * 640x400 a frame is a quarter of 1280x800's pixels (an immersive session's CPU fell from 32 to
 * 25 s in vr.test.ts). The headset sees the room through it; what a test checks in VR (the
 * panel, the controllers' rays, what the room shows) does not depend on its size.
 *
 * Like the file's other pages it draws at the file's device scale (fileBrowser's): at
 * {@link DRAW_SCALE} a session's frame has a quarter of the pixels. A session draws frame
 * after frame for as long as it lasts, as fast as the CPU lets it here, so a cheaper frame
 * does not lower the session's CPU a second: it lets the waits counted in frames (a
 * controller's aim, a trigger's pull, a panel standing still) end sooner, and the session with
 * them (10 s presenting beside two pages: 48 frames at one device pixel per CSS pixel, 66 at
 * half, for about the same CPU).
 */
export const HEADSET_VIEWPORT = { width: 640, height: 400 } as const;

/** The window of a page that may wear the headset: {@link HEADSET_VIEWPORT} if it does, else 1280x800; both at the file's scale. */
export function viewportFor(headset: boolean): { viewport: { width: number; height: number } } {
  return { viewport: headset ? HEADSET_VIEWPORT : { width: 1280, height: 800 } };
}

/**
 * Installs Meta's IWER into `page` before any of its scripts run, emulating a Quest 3 with its
 * two controllers: `navigator.xr` then supports `immersive-vr`, and `window.xrDevice` (IWER's
 * `XRDevice`) moves the headset and controllers and presses their buttons. Its frames come at
 * a quarter of the browser's rate (thin-animation-frames.ts) unless `everyFrame`, for benchmarks that
 * time the session's frames.
 */
export async function installEmulatedHeadset(page: Page, everyFrame = false): Promise<void> {
  if (!everyFrame) await page.addInitScript(thinAnimationFrames, FRAME_EVERY);
  await page.addInitScript({ path: createRequire(import.meta.url).resolve('iwer/build/iwer.min.js') });
  await page.addInitScript(() => {
    const iwer = (window as unknown as { IWER: { XRDevice: new (config: unknown) => { installRuntime(o: object): void }; metaQuest3: unknown } }).IWER;
    const device = new iwer.XRDevice(iwer.metaQuest3);
    device.installRuntime({ forceInstall: true });
    (window as unknown as { xrDevice: unknown }).xrDevice = device;
  });
}

/**
 * Opens `url` in a fresh context of `browser` ({@link HEADSET_VIEWPORT}, at the file's scale) with IWER's emulated Quest 3 installed
 * before the page's scripts run, recording its uncaught errors; the context is added to
 * `contexts` for the caller to close.
 */
export async function openHeadsetPage(browser: Browser, contexts: BrowserContext[], url: string): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: HEADSET_VIEWPORT });
  contexts.push(context);
  const page = await context.newPage();
  await installEmulatedHeadset(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, requests: [], errors };
}

/** Waits until the page's stage draws exactly the layers `ids` (its canvas's `data-layers-drawn`). */
export async function layersDrawn(page: Page, ids: string[]): Promise<void> {
  await page.waitForFunction(
    (want) => (document.querySelector<HTMLElement>('canvas.stage-canvas')?.dataset.layersDrawn ?? '').split(' ').sort().join(' ') === want,
    [...ids].sort().join(' '),
    { timeout: STATE_WAIT_MS },
  );
}
