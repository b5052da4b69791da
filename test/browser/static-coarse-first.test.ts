/**
 * Coarse first for static and published specimens, in a real Chromium against a real host
 * process behind a throttled link (1.5 MB/s), as coarse-first.test.ts does for computed ones:
 * a volume published with `PUT /api/specimens/{id}` (an .npy body) and a static .obj mesh are
 * asked for at 64 samples an axis and 20,000 triangles first, drawn with the "Coarse preview"
 * note, then drawn whole. A static .glb (which the host reads too) loads without errors, and a
 * .gltf, which the host sends only as it is, is asked for with no delivery option and drawn
 * whole. No page logs an error. A screenshot of the published volume's coarse view lands
 * in os.tmpdir()/vitrine-browser-shots.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { MeshResult } from 'vitrine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrottledLink, type ThrottledLink } from '../bench/throttled-link.ts';
import { room, viewerQuery } from '../helpers/room.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { REPO } from '../helpers/cli-path.ts';
import { dense_mesh } from '../fixtures/plugins/large-results/index.ts';
import { DRAW_SCALE, shot, textOf, waitForDrawn } from './browser-session.ts';
import { fileBrowser } from './fork-browser.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { settled, WatchingPage, type Seen } from './refine-watch.ts';

let host: RunningHost;
let link: ThrottledLink;
let browser: Browser;
let specimens: string;
/** The file's one page, each case a load of its own. */
let tab: WatchingPage;

/** `mesh` as OBJ text (its faces 1-based). */
function objOf(mesh: MeshResult): string {
  const lines: string[] = [];
  for (let i = 0; i < mesh.vertices.length; i += 3) lines.push(`v ${[...mesh.vertices.subarray(i, i + 3)].map((n) => n.toFixed(5)).join(' ')}`);
  for (let i = 0; i < mesh.indices.length; i += 3) lines.push(`f ${[...mesh.indices.subarray(i, i + 3)].map((n) => n + 1).join(' ')}`);
  return lines.join('\n') + '\n';
}

/** A self-contained glTF (its buffer a data URI) of one square: a file the host sends only as it is. */
function squareGltf(): string {
  const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]);
  const indices = new Uint16Array([0, 1, 2, 0, 2, 3]);
  const buffer = Buffer.concat([Buffer.from(positions.buffer), Buffer.from(indices.buffer)]);
  return JSON.stringify({
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1 }] }],
    buffers: [{ byteLength: buffer.length, uri: `data:application/octet-stream;base64,${buffer.toString('base64')}` }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 48, target: 34962 },
      { buffer: 0, byteOffset: 48, byteLength: 12, target: 34963 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5123, count: 6, type: 'SCALAR' },
    ],
  });
}

beforeAll(async () => {
  specimens = await mkdtemp(path.join(tmpdir(), 'vitrine-static-coarse-'));
  const folder = async (id: string, file: string, body: string | Buffer | null) => {
    await mkdir(path.join(specimens, id));
    await writeFile(path.join(specimens, id, 'specimen.json'), JSON.stringify({ id, display_name: id, type: 'mesh', data_file: file }));
    if (body !== null) await writeFile(path.join(specimens, id, file), body);
  };
  // dense_mesh's bumpy sphere: a shape that does not simplify away.
  await folder('big-obj', 'big.obj', objOf(dense_mesh(200_000)));
  await folder('knot-glb', 'knot.glb', null);
  await copyFile(path.join(REPO, 'specimens/cinquefoil-knot/cinquefoil-knot.glb'), path.join(specimens, 'knot-glb', 'knot.glb'));
  await folder('square-gltf', 'square.gltf', squareGltf());
  // No plugins: the specimens here are files and a published array, which need none (on
  // build/out the host would start the Python example's warm processes beside it).
  [host, browser] = await Promise.all([
    spawnHost(['--host', '127.0.0.1', '--port', '0', '--plugins', 'none', '--specimens', specimens]),
    fileBrowser(DRAW_SCALE),
  ]);
  tab = new WatchingPage(browser);
  const published = await fetch(`${host.url}/api/specimens/pub-volume?filename=x.npy`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: new Uint8Array(npyBytes([96, 128, 128])),
  });
  expect(published.status).toBe(201);
  link = await startThrottledLink(host.url, 1.5e6);
});

afterAll(async () => {
  await browser?.close();
  await link?.close();
  await host?.stop('SIGTERM');
  await rm(specimens, { recursive: true, force: true });
});

interface Opened {
  page: Page;
  /** The `/data` requests, decoded, with their answers' status. */
  data: { url: string; status: number }[];
  /** Console errors and uncaught exceptions. */
  errors: string[];
  seen(): Promise<Seen[]>;
}

async function open(specimen: string, stat: string): Promise<Opened> {
  const data: Opened['data'] = [];
  const errors: string[] = [];
  const url = `${link.url}/${viewerQuery({ specimen, room: room(`static-coarse-${specimen}`) })}`;
  const { page, seen } = await tab.open(url, stat, (on) => {
    on('response', (r) => {
      if (r.url().includes(`/api/specimens/${specimen}/data`)) data.push({ url: decodeURIComponent(r.url()), status: r.status() });
    });
    on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    on('pageerror', (e) => errors.push(e.message));
  });
  return { page, data, errors, seen };
}

/** Some `/data` was asked for, every answer was a 200 and the page logged no error. */
function expectClean({ data, errors }: Opened): void {
  expect(data.length).toBeGreaterThan(0);
  expect(data.every((d) => d.status === 200)).toBe(true);
  expect(errors).toEqual([]);
}

const count = (s: Seen) => Number(s.stat.replace(/\D/g, ''));

describe('coarse first for static and published specimens', () => {
  it('draws a published volume from a 64-per-axis delivery first, with the note, then the full one', async () => {
    const opened = await open('pub-volume', 'shape');
    const { page, data, seen } = opened;
    await page.waitForSelector('[data-testid=refine-note]:not([hidden])', { timeout: STATE_WAIT_MS });
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('48 × 64 × 64');
    expect(await textOf(page, '[data-testid=refine-note]')).toContain('Coarse preview');
    await waitForDrawn(page);
    await shot(page, 'static-coarse-volume-coarse');
    await settled(page);
    expect(await page.locator('[data-testid=refine-note]').isHidden()).toBe(true);
    expect(await textOf(page, '[data-testid=stats] [data-stat=shape] dd')).toBe('96 × 128 × 128');
    await shot(page, 'static-coarse-volume-full');
    const shown = (await seen()).filter((s) => s.stat);
    expect(shown[0]).toEqual({ note: true, stat: '48 × 64 × 64' });
    expect(shown.at(-1)).toEqual({ note: false, stat: '96 × 128 × 128' });
    // The coarse request first and only once; the rest ask for it whole (the scale bar's unit
    // lookup also reads the shown data URL's headers, as it does for any static entry).
    expect(data[0]!.url).toContain('max_dim=64');
    expect(data.filter((d) => d.url.includes('max_dim'))).toHaveLength(1);
    expect(data.length).toBeGreaterThan(1);
    expectClean(opened);
  });

  it('draws a static .obj mesh from a simplified delivery first, with the note, then the full one', async () => {
    const opened = await open('big-obj', 'triangles');
    const { page, data, seen } = opened;
    await settled(page);
    const shown = (await seen()).filter((s) => s.stat);
    expect(shown[0]!.note).toBe(true);
    expect(count(shown[0]!)).toBeLessThanOrEqual(20000);
    expect(shown.at(-1)!.note).toBe(false);
    expect(count(shown.at(-1)!)).toBeGreaterThan(190000);
    expect(data[0]!.url).toContain('max_triangles=20000');
    expect(data.filter((d) => d.url.includes('max_triangles'))).toHaveLength(1);
    expect(data.length).toBeGreaterThan(1);
    expectClean(opened);
  });

  it('loads a static .glb mesh whole, with no failed request and no error', async () => {
    const opened = await open('knot-glb', 'triangles');
    const { page, seen } = opened;
    await settled(page);
    await waitForDrawn(page);
    expect(await page.locator('[data-testid=refine-note]').isHidden()).toBe(true);
    // Under the coarse budget the simplified delivery is the whole knot: what is drawn last is all of it.
    expect(count((await seen()).filter((s) => s.stat).at(-1)!)).toBe(19200);
    expectClean(opened);
  });

  it('asks for a .gltf the host sends only as it is with no delivery option, and draws it whole', async () => {
    const opened = await open('square-gltf', 'triangles');
    const { page, data, seen } = opened;
    await settled(page);
    await waitForDrawn(page);
    for (const d of data) expect(d.url).not.toMatch(/max_triangles|max_dim|format=/);
    expect((await seen()).some((s) => s.note)).toBe(false);
    expectClean(opened);
  });
});
