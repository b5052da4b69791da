/**
 * @module lod-fly-through
 * The viewer's part of `npm run bench meshes`: a room whose scene is the generated
 * segmentation shown as its surfaces, opened in Chromium through the 5 MB/s link (six
 * connections sharing it, as a browser's do), on the headset profile (300,000 triangles a
 * frame). The first picture (every segment's coarsest level drawn) is timed from the page's
 * first request for the layer's data to that frame, with the bytes the link carried between
 * (a first viewer, whose host makes the coarse delivery, then a second one in a fresh browser
 * context); then a scripted fly-through into the block and out on the page (the room's shared
 * camera) and in WebXR (IWER's Quest 3 walking up to the specimen), counting the most
 * triangles drawn in a frame and the frames with holes.
 */
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../browser/browser-session.ts';
import { installEmulatedHeadset, HEADSET_VIEWPORT } from '../browser/browser-session.ts';
import { firstPictures, flyHeadset, flyPage, line, lodLayers, type LodProbeLayer } from '../browser/lod-fly.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';
import { startThrottledLink, type ThrottledLink } from './throttled-link.ts';

const LINK = 5 * 1024 * 1024;
const HEADSET = 300_000;

/**
 * One viewer's first picture through the link: ms from its first request for the layer's data,
 * MB the link carried meanwhile (with whatever else of the page was in flight: the catalog's
 * thumbnails), and MB of the layer's own answers.
 */
interface FirstPicture {
  ms: number;
  mb: number;
  ownMb: number;
  layer: LodProbeLayer;
  close(): Promise<void>;
}

async function firstPicture(browser: Browser, link: ThrottledLink, room: string): Promise<FirstPicture> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${link.url}/?room=${room}&follow=1&lod_triangles=${HEADSET}`);
  const [layer] = await firstPictures(page, 1, 600_000);
  const asked = await page.evaluate((end) => {
    const data = performance.getEntriesByType('resource').filter((e) => /\/data\?|\/meshes\//.test(e.name)) as PerformanceResourceTiming[];
    const bytes = data.filter((e) => e.responseEnd <= end).reduce((n, e) => n + e.transferSize, 0);
    return { at: Math.min(...data.map((e) => e.startTime)), origin: performance.timeOrigin, bytes };
  }, layer!.firstPictureAt!);
  const ms = layer!.firstPictureAt! - asked.at;
  const mb = (link.bytesBy(asked.origin + layer!.firstPictureAt!) - link.bytesBy(asked.origin + asked.at)) / 1e6;
  return { ms, mb, ownMb: asked.bytes / 1e6, layer: layer!, close: () => context.close() };
}

const figures = (what: string, layer: LodProbeLayer): string =>
  `${what}: ${layer.frames} frames, at most ${layer.maxTriangles} triangles drawn in one (budget ${layer.budget}), ` +
  `${layer.holeFrames} frames with holes; ${layer.started} requests, ${layer.cancelled} cancelled, ${layer.evicted} fragments let go, ` +
  `${fmt(layer.heldBytes / 2 ** 20, 1)} MiB held at the end`;

/** The first picture and the fly-throughs of specimen `cells` (the segmentation whose result is `resultId`) on `host`. */
export async function flyThrough(host: RunningHost, resultId: string): Promise<string[]> {
  const lines: string[] = [];
  const room = `meshes-fly-${Date.now()}`;
  const scene = await fetch(`${host.url}/api/rooms/${room}/scene`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ layers: [{ id: 'cells', source: { specimen: 'cells' }, kind: 'labels', mode: 'surface' }] }),
  });
  if (!scene.ok) throw new Error(`scene: ${scene.status} ${await scene.text()}`);
  const link = await startThrottledLink(host.url, LINK, { shared: true });
  const browser = await launchBrowser();
  try {
    const first = await firstPicture(browser, link, room);
    await first.close();
    const second = await firstPicture(browser, link, room);
    lines.push(
      `first picture at 5 MB/s in the page (result ${resultId.slice(0, 12)}…, ${second.layer.segments} segments' coarsest levels): ` +
        `${fmt(second.ms, 0)} ms (target ≤ 500), ${fmt(second.mb, 3)} MB (target ≤ 0.8) through the link, ${fmt(second.ownMb, 3)} MB of ` +
        `them the layer's own; a first viewer, whose host made the coarse delivery: ${fmt(first.ms, 0)} ms, ${fmt(first.mb, 3)} MB ` +
        `(${fmt(first.ownMb, 3)} MB its own)`,
    );
    await second.close();
    // The page on the headset's budget: from outside the block, through it along z, and back.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${link.url}/?room=${room}&follow=1&lod_triangles=${HEADSET}`);
    await firstPictures(page, 1, 600_000);
    await page.evaluate(() => window.vitrineLod!.reset());
    await flyPage(page, host.url, room, line([224, 224, 1100], [224, 224, -200], 26), [224, 224, -3000]);
    lines.push(figures('fly-through in the page (headset budget)', (await lodLayers(page))[0]!));
    await context.close();
    // WebXR: the specimen stands on the table a metre in front, 60 cm across; walk through it and back.
    const vrContext = await browser.newContext({ viewport: HEADSET_VIEWPORT });
    const vr = await vrContext.newPage();
    await installEmulatedHeadset(vr, true);
    await vr.goto(`${link.url}/?room=${room}&follow=1`);
    await firstPictures(vr, 1, 600_000);
    await vr.getByRole('button', { name: 'Enter VR' }).click();
    await vr.waitForFunction(() => window.vitrineVr?.state().presenting === true, null, { timeout: 120_000 });
    await vr.evaluate(() => window.vitrineLod!.reset());
    await flyHeadset(vr, [0, 1.6, 0.4], [0, 1.1, -1.2], 20);
    lines.push(figures('fly-through in WebXR (IWER, Quest 3)', (await lodLayers(vr))[0]!));
    await vrContext.close();
  } finally {
    await browser.close();
    await link.close();
  }
  return lines;
}
