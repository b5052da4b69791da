/**
 * The colour maps a host lists and a room's picture, over a real HTTP server on loopback:
 * `GET /api/colormaps`; a view naming an unlisted map is a 400 listing them; every map the
 * viewer offers is accepted; `GET /api/rooms/{room_id}/image` answers a PNG of the asked size
 * with a picture in it (not one colour), 400 for a bad side naming it, 404 for an empty room;
 * a segmentation in `surface` mode is drawn as lit surfaces, each segment in its label's colour.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../core/app.ts';
import { SCALAR_COLORMAPS as VIEWER_COLORMAPS } from '../../core/wire/colormaps.ts';
import { room } from '../helpers/create-test-app.ts';
import { hsvAt } from '../helpers/png-hsv.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { labelRgb } from '../../core/wire/label-colors.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir, OBJ_TEXT } from '../helpers/specimens-dir.ts';

let url = '';
let app: FastifyInstance;

beforeAll(async () => {
  const specimensDir = await makeSpecimensDir();
  // A mesh that declares its colour: the page draws it in that colour, not its default blue.
  mkdirSync(join(specimensDir, 'red-tri'));
  writeFileSync(join(specimensDir, 'red-tri', 'specimen.json'), JSON.stringify({ type: 'mesh', data_file: 'tri.obj', color: '#e04030' }));
  writeFileSync(join(specimensDir, 'red-tri', 'tri.obj'), OBJ_TEXT);
  // One that declares none: the page draws it in its thumbnail's colour (a green PNG here).
  mkdirSync(join(specimensDir, 'green-tri'));
  writeFileSync(join(specimensDir, 'green-tri', 'specimen.json'), JSON.stringify({ type: 'mesh', data_file: 'tri.obj', thumbnail_file: 'thumb.png' }));
  writeFileSync(join(specimensDir, 'green-tri', 'tri.obj'), OBJ_TEXT);
  const thumb = new PNG({ width: 16, height: 16 });
  for (let i = 0; i < thumb.data.length; i += 4) thumb.data.set(i < thumb.data.length / 2 ? [40, 200, 60, 255] : [10, 12, 16, 255], i);
  writeFileSync(join(specimensDir, 'green-tri', 'thumb.png'), PNG.sync.write(thumb));
  app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir, logLevel: false, poolSize: 2, viewer: false });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.close();
});

const put = (path: string, body: unknown) =>
  fetch(`${url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A uint8 `.npy` file of `data` in `shape` (C order). */
function npyOf(data: Uint8Array, shape: number[]): Buffer {
  let header = `{'descr': '|u1', 'fortran_order': False, 'shape': (${shape.join(', ')}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prelude = Buffer.alloc(10);
  prelude.write('\x93NUMPY', 0, 'latin1');
  prelude.writeUInt8(1, 6);
  prelude.writeUInt16LE(header.length, 8);
  return Buffer.concat([prelude, Buffer.from(header, 'latin1'), Buffer.from(data)]);
}

/** The distinct pixel colours of a PNG (RGB). */
function colours(png: PNG): number {
  const seen = new Set<number>();
  for (let i = 0; i < png.data.length; i += 4) seen.add((png.data[i]! << 16) | (png.data[i + 1]! << 8) | png.data[i + 2]!);
  return seen.size;
}

describe('colour maps', () => {
  it('lists the maps; a view with another name is a 400 listing them; the viewer’s own names are accepted', async () => {
    const answer = await fetch(`${url}/api/colormaps`);
    expect(answer.status).toBe(200);
    const { colormaps } = (await answer.json()) as { colormaps: { name: string; categorical: boolean }[] };
    const names = colormaps.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(['gray', 'viridis', 'magma', 'inferno', 'plasma', 'bone', 'hot', 'ice']));
    expect(colormaps.filter((c) => c.categorical).map((c) => c.name)).toEqual(['glasbey']);
    const r = room();
    const refused = await put(`/api/rooms/${r}/view`, { colormap: 'rainbow' });
    expect(refused.status).toBe(400);
    const detail = ((await refused.json()) as { detail: string }).detail;
    expect(detail).toContain("'colormap'");
    for (const name of names) expect(detail).toContain(name);
    for (const name of [...names, ...VIEWER_COLORMAPS]) expect((await put(`/api/rooms/${r}/view`, { colormap: name })).status).toBe(200);
    const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/colormaps', '/api/rooms/{room_id}/image']));
  });
});

describe('a picture of the room', () => {
  it('answers a PNG of the asked size with the view applied, not one colour', async () => {
    const r = room();
    expect((await put(`/api/rooms/${r}/entry`, { function: 'ramp', params: { n: 12 } })).status).toBe(200);
    expect((await put(`/api/rooms/${r}/view`, { colormap: 'viridis', mode: 'volume' })).status).toBe(200);
    const answer = await fetch(`${url}/api/rooms/${r}/image?w=320&h=200`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('cache-control')).toBe('no-cache');
    const bytes = Buffer.from(await answer.arrayBuffer());
    writeFileSync('/tmp/vitrine-room-volume.png', bytes);
    const png = PNG.sync.read(bytes);
    expect([png.width, png.height]).toEqual([320, 200]);
    expect(colours(png)).toBeGreaterThan(50);

    const mesh = room();
    await put(`/api/rooms/${mesh}/entry`, { function: 'square', params: { size: 2 } });
    await put(`/api/rooms/${mesh}/view`, { camera: { position: [0, 2, 3], target: [0, 0, 0], up: [0, 1, 0] } });
    const meshPng = PNG.sync.read(Buffer.from(await (await fetch(`${url}/api/rooms/${mesh}/image`)).arrayBuffer()));
    writeFileSync('/tmp/vitrine-room-mesh.png', PNG.sync.write(meshPng));
    expect([meshPng.width, meshPng.height]).toEqual([512, 512]);
    expect(colours(meshPng)).toBeGreaterThan(50);

    // A specimen's declared colour, else its thumbnail's, as the page draws the mesh it shows.
    const meshPixels = async (specimen: string, test: (r: number, g: number, b: number) => boolean): Promise<number> => {
      const r = room();
      await put(`/api/rooms/${r}/entry`, { specimen });
      const png = PNG.sync.read(Buffer.from(await (await fetch(`${url}/api/rooms/${r}/image?w=128&h=128`)).arrayBuffer()));
      let count = 0;
      for (let i = 0; i < png.data.length; i += 4) if (test(png.data[i]!, png.data[i + 1]!, png.data[i + 2]!)) count++;
      return count;
    };
    expect(await meshPixels('red-tri', (r, _g, b) => r - b > 60)).toBeGreaterThan(500);
    expect(await meshPixels('green-tri', (r, g, b) => g - r > 60 && g - b > 60)).toBeGreaterThan(500);
  });

  it('refuses a bad side naming it, and a room that shows nothing with a 404', async () => {
    const r = room();
    await put(`/api/rooms/${r}/entry`, { specimen: 'vol' });
    for (const [query, field] of [['w=0', 'w'], ['h=2049', 'h'], ['w=abc', 'w'], ['h=1.5', 'h']]) {
      const answer = await fetch(`${url}/api/rooms/${r}/image?${query}`);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(new RegExp(`^${field} must be a whole number of pixels from 1 to 2048`));
    }
    expect((await fetch(`${url}/api/rooms/${r}/image?w=16&h=16`)).status).toBe(200);
    const empty = await fetch(`${url}/api/rooms/${room()}/image`);
    expect(empty.status).toBe(404);
    expect(((await empty.json()) as { detail: string }).detail).toContain('shows nothing');
  });
  it('draws every visible layer of a scene in the room’s frame: a volume and a mesh placed on it, hidden where a slice is in front', async () => {
    const r = room();
    const layer = (body: unknown) =>
      fetch(`${url}/api/rooms/${r}/layers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await layer({ id: 'scan', source: { function: 'ramp', params: { n: 16 } }, colormap: 'gray' })).status).toBe(201);
    // The ramp spans x 2..34, y 1.75..9.75, z 0.75..8.75 (spacing and origin in C order), its middle
    // z slice at z 5: a sheet of 4 × 4 units lies flat half a unit above that slice, where the
    // camera (from above) sees it.
    const sheetAt = (z: number) => [4, 0, 0, 18, 0, 4, 0, 5.75, 0, 0, 4, z, 0, 0, 0, 1];
    const onScan = sheetAt(5.5);
    expect((await layer({ id: 'sheet', source: { function: 'square', params: { size: 1 } }, affine: onScan })).status).toBe(201);
    const picture = async (): Promise<PNG> => {
      const answer = await fetch(`${url}/api/rooms/${r}/image?w=400&h=400`);
      expect(answer.status).toBe(200);
      return PNG.sync.read(Buffer.from(await answer.arrayBuffer()));
    };
    /** Pixels of the mesh's blue (the page's default mesh colour), and of the grey volume. */
    const census = (png: PNG): { blue: number; grey: number } => {
      let blue = 0, grey = 0;
      for (let i = 0; i < png.data.length; i += 4) {
        const [r, g, b] = [png.data[i]!, png.data[i + 1]!, png.data[i + 2]!];
        if (b - r > 60 && b > g) blue++;
        else if (Math.abs(r - g) < 6 && Math.abs(g - b) < 6 && r > 90) grey++;
      }
      return { blue, grey };
    };
    const both = await picture();
    writeFileSync('/tmp/vitrine-room-scene.png', PNG.sync.write(both));
    const drawn = census(both);
    expect(drawn.blue).toBeGreaterThan(400);
    expect(drawn.grey).toBeGreaterThan(4000);
    // Half a unit under the slice, the slice hides it, as the page's depth test does.
    const patch = (body: unknown) =>
      fetch(`${url}/api/rooms/${r}/layers/sheet`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await patch({ affine: sheetAt(4.5) })).status).toBe(200);
    // (A few pixels still show through where the middle x slice is see-through.)
    expect(census(await picture()).blue).toBeLessThan(drawn.blue / 10);
    // A hidden layer is not drawn: the volume alone.
    await patch({ visible: false });
    const alone = census(await picture());
    expect(alone.blue).toBe(0);
    expect(alone.grey).toBeGreaterThan(4000);
  });

  it('draws a segmentation’s surfaces, each segment’s in the colour the page’s label palette gives it', async () => {
    const r = room();
    // A 12³ labels volume: segment 2 a block at x 1..4, segment 5 one at x 7..10.
    const n = 12;
    const ids = new Uint8Array(n ** 3);
    for (let z = 3; z <= 8; z++) for (let y = 3; y <= 8; y++) for (let x = 1; x <= 10; x++) if (x <= 4 || x >= 7) ids[(z * n + y) * n + x] = x <= 4 ? 2 : 5;
    const published = await fetch(`${url}/api/specimens/${r}.seg?filename=seg.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: Uint8Array.from(npyOf(ids, [n, n, n])),
    });
    expect(published.status).toBe(201);
    const layers = [{ id: 'seg', source: { specimen: `${r}.seg` }, kind: 'labels', mode: 'surface' }];
    expect((await put(`/api/rooms/${r}/scene`, { layers })).status).toBe(200);
    await waitFor(async () => {
      const scene = (await (await fetch(`${url}/api/rooms/${r}/scene`)).json()) as RoomScene;
      return scene.layers[0]?.result?.levels ? true : undefined;
    }, 'the labels layer computed, with levels');
    const answer = await fetch(`${url}/api/rooms/${r}/image?w=256&h=256`);
    expect(answer.status).toBe(200);
    const png = PNG.sync.read(Buffer.from(await answer.arrayBuffer()));
    writeFileSync('/tmp/vitrine-room-labels.png', PNG.sync.write(png));
    /** The brightness of the pixels drawn in `id`'s hue, lowest first: a lit surface spans a range, a flat slice has one. */
    const brightnessOf = (id: number): number[] => {
      const [lr, lg, lb] = labelRgb(id).map((c) => c / 255) as [number, number, number];
      const max = Math.max(lr, lg, lb), d = max - Math.min(lr, lg, lb);
      const hue = max === lr ? 60 * (((lg - lb) / d + 6) % 6) : max === lg ? 60 * ((lb - lr) / d + 2) : 60 * ((lr - lg) / d + 4);
      const values: number[] = [];
      for (let y = 0; y < png.height; y++) {
        for (let x = 0; x < png.width; x++) {
          const at = hsvAt(png, x, y);
          const apart = Math.min(Math.abs(at.h - hue), 360 - Math.abs(at.h - hue));
          if (at.s > 0.35 && at.v > 0.15 && apart < 12) values.push(at.v);
        }
      }
      return values.sort((a, b) => a - b);
    };
    // The two segments' colours are told apart (green and orange), and each is drawn as a lit surface.
    expect(Math.abs(labelRgb(2)[0] - labelRgb(5)[0]) + Math.abs(labelRgb(2)[2] - labelRgb(5)[2])).toBeGreaterThan(60);
    for (const id of [2, 5]) {
      const values = brightnessOf(id);
      expect(values.length, `pixels of segment ${id}`).toBeGreaterThan(1000);
      const spread = values[Math.floor(values.length * 0.9)]! - values[Math.floor(values.length * 0.1)]!;
      expect(spread, `brightness spread of segment ${id}`).toBeGreaterThan(0.1);
    }
  });
});
