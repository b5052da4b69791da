/**
 * @module durable-room
 * Section 5 of `npm run bench durable`: a room of four layers (scenes-viewer.bench.ts's: a 256³
 * uint16 scan, its labels, a 500,000-triangle mesh and 100,000 points) on a host with a data
 * folder, its first frame in a following page (Chromium with SwiftShader, a fresh context each
 * time) before and after the host is killed with SIGKILL and started again on the folder. The
 * computations the host starts (room cache misses, from /metrics) are read after the restart,
 * before the first page and after the last: a room kept whole shows with none. The first page
 * after the restart is reported on its own (nothing of the room is in the host's memory then),
 * beside the median of the pages that follow it.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../browser/browser-session.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { viewerQuery } from '../helpers/room.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt, percentile } from './host-helpers.ts';
import { FOUR, open, putScene, type Timing } from './scenes-viewer.bench.ts';

const ROOM = 'kept-four';

/** Room cache lookups that missed (each one a computation started) since the host started, from /metrics. */
export async function computationsOf(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^vitrine_cache_lookups\{outcome="miss"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

/** Each layer's result id in the room's scene, by layer. */
async function resultsOf(url: string): Promise<string> {
  const scene = (await (await fetch(`${url}/api/rooms/${ROOM}/scene`)).json()) as { layers: { id: string; result?: { result_id?: string } }[] };
  return scene.layers.map((layer) => `${layer.id}=${layer.result?.result_id ?? 'none'}`).join(' ');
}

/** The lines of the section; `quick` times one page on each side of the restart. */
export async function keptRoomFrames(dir: string, quick: boolean): Promise<string[]> {
  const runs = quick ? 1 : 3;
  const [plugins, specimens] = await Promise.all([builtFixture('scene-plugins'), mkdtemp(path.join(tmpdir(), 'vitrine-durable-room-'))]);
  const args = ['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--data-dir', path.join(dir, 'room')];
  const ids = FOUR.map((layer) => layer.id);
  const page = (url: string) => `${url}/${viewerQuery({ room: ROOM, follow: true })}`;
  let host = await spawnHost(args);
  const browser = await launchBrowser();
  try {
    await putScene(host.url, ROOM, FOUR);
    const kept = await resultsOf(host.url);
    // The first page makes the host's coarse deliveries, as a room's first viewer would; not counted.
    await open(browser, page(host.url), ids);
    const before: Timing[] = [];
    for (let i = 0; i < runs; i++) before.push(await open(browser, page(host.url), ids));
    await host.stop('SIGKILL');
    host = await spawnHost(args);
    if ((await resultsOf(host.url)) !== kept) throw new Error(`the room's results after the restart: ${await resultsOf(host.url)}, before: ${kept}`);
    const atStart = await computationsOf(host.url);
    const cold = await open(browser, page(host.url), ids);
    const after: Timing[] = [];
    for (let i = 0; i < runs; i++) after.push(await open(browser, page(host.url), ids));
    const computed = (await computationsOf(host.url)) - atStart;
    const median = (values: Timing[], key: keyof Timing) => percentile(values.map((t) => t[key]), 50);
    const s = (ms: number) => `${fmt(ms / 1000)} s`;
    const beforeFirst = median(before, 'first');
    return [
      `4-layer room (256³ uint16 scan and labels, 500k-triangle mesh, 100k points) before kill -9: first frame ${s(beforeFirst)}, ` +
        `full detail ${s(median(before, 'full'))} (median of ${runs})`,
      `same room after kill -9 and a restart on its folder: computations ${atStart} at start, ${computed} while ${runs + 1} pages opened it ` +
        `(goal 0); first page: first frame ${s(cold.first)} (${fmt(cold.first / beforeFirst)}x), full detail ${s(cold.full)}; ` +
        `then first frame ${s(median(after, 'first'))} (${fmt(median(after, 'first') / beforeFirst)}x, median of ${runs}); goal <= 1.5x`,
    ];
  } finally {
    await browser.close();
    await host.stop();
  }
}
