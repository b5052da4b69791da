/**
 * The page's first picture of a remote image, in a real Chromium: a room whose one layer is an
 * image read in place from a remote (OME-Zarr v0.5, sharded, two levels) opens on the page,
 * which draws it; the picture shows the image (a bright ball in the middle of a dark volume,
 * brighter at the stage's centre than at its corners), the remote was read only for its
 * metadata and the chunks shown, and the page said no error. The screenshot lands in
 * os.tmpdir()/vitrine-browser-shots/remote-first-picture.png.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, describe, expect, it } from 'vitest';
import { room as freshRoom, viewerQuery } from '../helpers/room.ts';
import { halved, startRemoteServer, writeV05, type LevelData } from '../helpers/zarr-remote.ts';
import { browserAndHost } from './browser-host.ts';
import { layersDrawn, openPage, SHOTS_DIR } from './browser-session.ts';

/** A 32×64×64 uint16 volume: a ball of 40,000 (radius 12) in a background of 500. */
function ballVolume(): LevelData {
  const shape = [32, 64, 64];
  const data = new Uint16Array(32 * 64 * 64);
  for (let z = 0; z < 32; z++)
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) data[(z * 64 + y) * 64 + x] = Math.hypot(2 * (z - 16), y - 32, x - 32) < 24 ? 40_000 : 500;
  return { shape, data };
}

const remote = await startRemoteServer();
const level0 = ballVolume();
const spec = { path: 'plate/ball.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [16, 32, 32], compression: 'zstd' as const, scale: [2, 1, 1] };
await writeV05(remote.files, { ...spec, levels: [level0, halved(level0, 'zyx')] }, [2, 2, 1]);
afterAll(() => remote.close());

const session = browserAndHost(['--remote', `lab=${remote.url}`]);

/** Mean brightness (0-255) of the square of side `side` centred at (cx, cy). */
function meanValue(png: PNG, cx: number, cy: number, side: number): number {
  let sum = 0;
  let n = 0;
  for (let y = Math.round(cy - side / 2); y < cy + side / 2; y++) {
    for (let x = Math.round(cx - side / 2); x < cx + side / 2; x++) {
      const i = (y * png.width + x) * 4;
      sum += Math.max(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!);
      n++;
    }
  }
  return sum / n;
}

describe('a remote image on the page', () => {
  it('is drawn as a room layer: the first picture shows it, read in place', async () => {
    const base = session.host.baseUrl;
    const room = freshRoom('remote-picture');
    const put = await fetch(`${base}/api/specimens/ball`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ remote: 'lab/plate/ball.ome.zarr' }),
    });
    expect(put.status, await put.clone().text()).toBe(201);
    const layers = [{ id: 'ball', source: { specimen: 'ball' }, kind: 'image' }];
    const scene = await fetch(`${base}/api/rooms/${room}/scene`, {
      method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ layers }),
    });
    expect(scene.status, await scene.clone().text()).toBeLessThan(300);
    remote.reset();

    const opened = Date.now();
    const { page, errors } = await openPage(session.browser, session.contexts, `${base}/${viewerQuery({ room, follow: true })}`);
    await layersDrawn(page, ['ball']);
    const firstPictureMs = Date.now() - opened;
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const stage = (await page.locator('canvas.stage-canvas').boundingBox())!;
    const picture = PNG.sync.read(await page.screenshot({ clip: stage }));
    await writeFile(path.join(SHOTS_DIR, 'remote-first-picture.png'), PNG.sync.write(picture));

    // The ball is drawn: the stage's middle is bright, its corners are not.
    const side = Math.round(Math.min(picture.width, picture.height) / 10);
    const middle = meanValue(picture, picture.width / 2, picture.height / 2, side);
    const corners = [
      [side, side], [picture.width - side, side], [side, picture.height - side], [picture.width - side, picture.height - side],
    ].map(([x, y]) => meanValue(picture, x!, y!, side));
    const where = `middle ${middle.toFixed(1)}, corners ${corners.map((c) => c.toFixed(1)).join(' ')}, first picture in ${firstPictureMs} ms`;
    expect(middle, where).toBeGreaterThan(100);
    for (const corner of corners) expect(middle - corner, where).toBeGreaterThan(60);

    // Read in place: the remote gave only this image's shards, nothing was asked outside it.
    const chunks = remote.sent.paths.filter((p) => p.includes('/c/'));
    expect(chunks.length).toBeGreaterThan(0);
    expect(remote.sent.paths.every((p) => p.startsWith('plate/ball.ome.zarr/'))).toBe(true);
    expect(errors).toEqual([]);
  });
});
