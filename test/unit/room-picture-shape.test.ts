/**
 * A room's picture of another shape than square shows the whole result: a mesh, a cloud, a
 * volume or a scene asked wide or tall keeps a margin of backdrop on its short sides (nothing
 * cut off) and the bands beside it are the wide backdrop to the bit (no seam where the drawn
 * square ends), but for the scale bar in the lower right corner, where the page has it; a 2-D
 * image whose shape fits the picture fills it at full resolution.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { RoomView } from '../../core/wire/room-types.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { readPngText } from '../../core/formats/png/png-text.ts';
import { createBackdrop, toBytes } from '../../core/thumbnails/canvas.ts';
import { renderRoomPicture } from '../../core/thumbnails/room-picture.ts';
import type { PictureLayer } from '../../core/thumbnails/scene-picture.ts';
import { icosphere } from '../../plugins/parametric-shapes/index.ts';
import { gaussian_blobs } from '../../plugins/scalar-volumes/index.ts';

const view: RoomView = {} as RoomView;
const mesh = { type: 'mesh', ...icosphere(1, 2) } as unknown as StoredResult;
const volume = { type: 'volume', ...gaussian_blobs(1, 24, 0.5, 1) } as unknown as StoredResult;
const cloud = {
  type: 'point_cloud',
  points: new Float32Array(30_000).map((_, i) => ((Math.sin(i * 12.9898) * 43758.5453) % 1) * 0.5),
} as unknown as StoredResult;

/** The picture's pixels that are not the plain backdrop of its size, and their extent. */
function drawnExtent(layers: PictureLayer[], width: number, height: number) {
  const bytes = renderRoomPicture(layers, { width, height, view });
  const png = PNG.sync.read(Buffer.from(bytes));
  expect([png.width, png.height]).toEqual([width, height]);
  // The scale bar's plate (a small picture's: at most 130 × 30 pixels) stands in the lower right corner.
  const bar = readPngText(bytes)['Scale bar'] !== undefined;
  const inBar = (x: number, y: number): boolean => bar && x >= width - 130 && y >= height - 30;
  const backdrop = toBytes(createBackdrop(width, height));
  const box = { left: width, right: -1, top: height, bottom: -1, count: 0 };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [i, j] = [(y * width + x) * 4, (y * width + x) * 3];
      if (inBar(x, y) || (png.data[i] === backdrop[j] && png.data[i + 1] === backdrop[j + 1] && png.data[i + 2] === backdrop[j + 2])) continue;
      box.count++;
      Object.assign(box, { left: Math.min(box.left, x), right: Math.max(box.right, x), top: Math.min(box.top, y), bottom: Math.max(box.bottom, y) });
    }
  }
  return box;
}

describe('a room picture of another shape', () => {
  it.each([
    ['a mesh', [{ result: mesh }]],
    ['a volume', [{ result: volume }]],
    ['a point cloud', [{ result: cloud }]],
    ['a scene of a volume and a mesh', [{ result: volume }, { result: mesh, display: { affine: [8, 0, 0, 0, 0, 8, 0, 0, 0, 0, 8, 0, 0, 0, 0, 1] } }]],
  ] as [string, PictureLayer[]][])('shows all of %s, wide or tall, with no seam', (_, layers) => {
    for (const [width, height] of [[360, 120], [100, 300]] as const) {
      const drawn = drawnExtent(layers, width, height);
      expect(drawn.count).toBeGreaterThan(500);
      // The drawing stays strictly inside the centred square on the shorter side: nothing reaches
      // the picture's short sides (the result is framed whole, not cut), and the bands beside the
      // square are pure backdrop.
      const side = Math.min(width, height), x0 = (width - side) / 2, y0 = (height - side) / 2;
      expect(drawn.left).toBeGreaterThan(x0);
      expect(drawn.right).toBeLessThan(x0 + side - 1);
      expect(drawn.top).toBeGreaterThan(y0);
      expect(drawn.bottom).toBeLessThan(y0 + side - 1);
    }
  });

  it('draws a 2-D image of the picture’s shape at full resolution', () => {
    const image = { type: 'image', width: 400, height: 100, channels: 3, data: new Uint8Array(400 * 100 * 3).fill(255) } as unknown as StoredResult;
    const png = PNG.sync.read(Buffer.from(renderRoomPicture([{ result: image }], { width: 400, height: 100, view })));
    // Every pixel is the image's white, corners included.
    for (let i = 0; i < png.data.length; i += 4) expect(png.data[i]! + png.data[i + 1]! + png.data[i + 2]!).toBe(765);
  });
});
