/**
 * Coarse first in the web viewer, in a real Chromium against a real host process behind a
 * throttled link (1.5 MB/s): a large volume is drawn first from a 64-per-axis delivery and a
 * large mesh from a 20,000-triangle one, each with a visible note; the full result then
 * replaces it, and the note goes. Behind a proxy that holds answers back, the full mesh is
 * asked for while the coarse answer's body is still held (so it waits for no more than the
 * coarse answer's headers). A small result is drawn once, with no second request; a larger
 * whole one once, with no note. The mesh (300,304 triangles) is within the host's
 * `--mesh-lod-triangles`, set here above it: a mesh past that bound is drawn from its levels of
 * detail instead (lod-surfaces.test.ts). Screenshots of the coarse and the refined views land in
 * os.tmpdir()/vitrine-browser-shots.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrottledLink, type ThrottledLink } from '../bench/throttled-link.ts';
import { READ_BEFORE_REFINING_BYTES } from '../../viewer/coarse-first.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startHoldingProxy, type HoldingProxy } from '../helpers/holding-proxy.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { DRAW_SCALE, shot, textOf } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { settled, WatchingPage, type Seen } from './refine-watch.ts';

let host: RunningHost;
let link: ThrottledLink;
let browser: Browser;
let specimens: string;
/** The file's one page, each case a load of its own. */
let tab: WatchingPage;

beforeAll(async () => {
  specimens = await mkdtemp(path.join(tmpdir(), 'vitrine-coarse-'));
  const dynamic = async (id: string, type: string, fn: string) => {
    await mkdir(path.join(specimens, id));
    await writeFile(path.join(specimens, id, 'specimen.json'), JSON.stringify({ id, display_name: id, type, function_name: fn }));
  };
  await dynamic('big-volume', 'volume', 'sized_volume');
  await dynamic('big-mesh', 'mesh', 'dense_mesh');
  const plugins = await fixturePluginsDir();
  // The mesh stays within the bound past which it would have levels of detail, so it is delivered coarse first.
  const args = ['--host', '127.0.0.1', '--port', '0', '--plugins', plugins, '--specimens', specimens, '--mesh-lod-triangles', '1000000'];
  [host, browser] = await Promise.all([spawnHost(args), fileBrowser(DRAW_SCALE)]);
  tab = new WatchingPage(browser);
  link = await startThrottledLink(host.url, 1.5e6);
});

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await host?.stop('SIGTERM');
  await rm(specimens, { recursive: true, force: true });
});

async function open(specimen: string, params: object, stat: string, base = link.url): Promise<{ page: Page; requests: string[]; seen: () => Promise<Seen[]> }> {
  const requests: string[] = [];
  const url = `${base}/${viewerQuery({ specimen, room: room(`coarse-${specimen}`), params })}`;
  const { page, seen } = await tab.open(url, stat, (on) =>
    on('request', (r) => {
      if (r.url().includes('/data?')) requests.push(decodeURIComponent(r.url()));
    }),
  );
  return { page, requests, seen };
}

describe('coarse first', () => {
  it('draws a large volume from a 64-per-axis delivery first, then the full one', async () => {
    // uint8: 6 MB whole, 4 s behind the link (as uint16 it took 8 s to show the same thing).
    const { page, requests, seen } = await open('big-volume', { depth: 96, height: 256, width: 256, dtype: 'uint8' }, 'shape');
    await page.waitForSelector('[data-testid=refine-note]:not([hidden])', { timeout: STATE_WAIT_MS });
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('48 × 64 × 64');
    await shot(page, 'coarse-first-volume-coarse');
    await settled(page);
    expect(await page.locator('[data-testid=refine-note]').isHidden()).toBe(true);
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('96 × 256 × 256');
    await shot(page, 'coarse-first-volume-full');
    const shown = (await seen()).filter((s) => s.stat);
    // The coarse view with its note, then the full one without it: never a blank stage between.
    expect(shown[0]).toEqual({ note: true, stat: '48 × 64 × 64' });
    expect(shown.at(-1)).toEqual({ note: false, stat: '96 × 256 × 256' });
    expect(shown.map((s) => s.stat).filter((s, i, all) => s !== all[i - 1])).toEqual(['48 × 64 × 64', '96 × 256 × 256']);
    const data = requests.filter((r) => r.includes('/api/specimens/big-volume/data'));
    expect(data).toHaveLength(2);
    expect(data[0]).toContain('max_dim=64');
    expect(data[1]).not.toContain('max_dim');
  });

  it('draws a large mesh from a simplified delivery first, then the full one', async () => {
    const { page, requests, seen } = await open('big-mesh', { triangles: 300000 }, 'triangles');
    await settled(page);
    const shown = (await seen()).filter((s) => s.stat);
    const count = (s: Seen) => Number(s.stat.replace(/\D/g, ''));
    expect(shown[0]!.note).toBe(true);
    expect(count(shown[0]!)).toBeLessThanOrEqual(20000);
    expect(shown.at(-1)!.note).toBe(false);
    expect(count(shown.at(-1)!)).toBeGreaterThan(290000);
    await shot(page, 'coarse-first-mesh-full');
    const data = requests.filter((r) => r.includes('/api/specimens/big-mesh/data'));
    expect(data).toHaveLength(2);
    expect(data[0]).toContain('max_triangles=20000');
    expect(data[1]).not.toContain('max_triangles');
  });

  it('asks for the full mesh while the coarse answer is still arriving, and keeps the coarse view with its note until the full one is drawn', async () => {
    // The coarse answer's body is held until the full mesh is asked for: a viewer that waited
    // for it first would never draw anything. The full answer is held until the coarse view
    // has been looked at.
    const isData = (url: string) => url.includes('/api/specimens/big-mesh/data?');
    const isCoarse = (url: string) => isData(url) && url.includes('max_triangles=20000');
    const isFull = (url: string) => isData(url) && !url.includes('max_triangles');
    let lookedAt!: () => void;
    const looked = new Promise<void>((resolve) => (lookedAt = resolve));
    const proxy: HoldingProxy = await startHoldingProxy(host.url, [
      { name: 'coarse', match: isCoarse, until: () => proxy.asked(isFull) },
      { name: 'full', match: isFull, until: () => looked },
    ]);
    try {
      const { page, seen } = await open('big-mesh', { triangles: 300000 }, 'triangles', proxy.url);
      await page.waitForSelector('[data-testid=refine-note]:not([hidden])', { timeout: STATE_WAIT_MS });
      const count = (s: Seen) => Number(s.stat.replace(/\D/g, ''));
      expect(count({ note: true, stat: await textOf(page, '[data-testid=stats] [data-stat=triangles] dd') })).toBeLessThanOrEqual(20000);
      await shot(page, 'coarse-first-mesh-coarse');
      lookedAt();
      await settled(page);
      expect(await page.locator('[data-testid=refine-note]').isHidden()).toBe(true);
      const shown = (await seen()).filter((s) => s.stat);
      expect(shown[0]!.note).toBe(true);
      expect(shown.at(-1)).toMatchObject({ note: false });
      expect(shown.map((s) => count(s) > 290000).filter((full, i, all) => full !== all[i - 1])).toEqual([false, true]);
      // The coarse answer is large enough not to be read whole before refining.
      expect(proxy.lengths.get('coarse')).toBeGreaterThan(READ_BEFORE_REFINING_BYTES);
      const order = proxy.log
        .filter((line) => !line.startsWith('asked') || isData(line))
        .map((line) => (isCoarse(line) ? 'asked coarse' : isFull(line) ? 'asked full' : line));
      const at = (line: string) => order.indexOf(line);
      expect(order.filter((line) => line.startsWith('asked'))).toEqual(['asked coarse', 'asked full']);
      expect(at('headers coarse')).toBeLessThan(at('asked full'));
      expect(at('asked full')).toBeLessThan(at('released coarse'));
      expect(order.at(-1)).toBe('released full');
    } finally {
      lookedAt();
      await proxy.close();
    }
  });

  it('draws a small result once, with no second request and no note', async () => {
    // Under 16 KiB the coarse answer is read whole before deciding: it is the whole result.
    const { page, requests, seen } = await open('big-volume', { depth: 8, height: 12, width: 10 }, 'shape');
    await settled(page);
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('8 × 12 × 10');
    expect((await seen()).some((s) => s.note)).toBe(false);
    expect(requests.filter((r) => r.includes('/api/specimens/big-volume/data'))).toHaveLength(1);
  });

  it('draws a larger whole result once, with no note (the full fetch its headers started is not drawn)', async () => {
    const { page, seen } = await open('big-volume', { depth: 20, height: 30, width: 24 }, 'shape');
    await settled(page);
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('20 × 30 × 24');
    const shown = await seen();
    expect(shown.some((s) => s.note)).toBe(false);
    expect(shown.filter((s) => s.stat).map((s) => s.stat)).toEqual(['20 × 30 × 24']);
  });
});
