/**
 * @module placeholder-png
 * The thumbnail served for a specimen without one: a 64×64 muted tile (the dark radial
 * backdrop of the rendered example thumbnails, with a dim slate isometric cube), so it sits
 * quietly among real thumbnails in a dark catalog. Rendered once in code, kept as PNG bytes.
 */
import { encodePng } from '../formats/png/encode-png.ts';

const SIZE = 64;
const SAMPLES = 4; // per axis: 16 samples per pixel for smooth edges

type Point = readonly [number, number];
type Rgb = readonly [number, number, number];

/** Even-odd point-in-polygon. */
function inside(x: number, y: number, poly: readonly Point[]): boolean {
  let hit = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) hit = !hit;
  }
  return hit;
}

// An isometric cube centred in the tile: top, left and right faces.
const C: Point = [32, 33];
const R = 17;
const H = R * 0.5;
const FACES: ReadonlyArray<{ poly: Point[]; color: Rgb }> = [
  { poly: [[C[0], C[1] - 2 * H], [C[0] + R, C[1] - H], [C[0], C[1]], [C[0] - R, C[1] - H]], color: [92, 101, 118] },
  { poly: [[C[0] - R, C[1] - H], [C[0], C[1]], [C[0], C[1] + 2 * H + 4], [C[0] - R, C[1] + H + 4]], color: [66, 74, 89] },
  { poly: [[C[0], C[1]], [C[0] + R, C[1] - H], [C[0] + R, C[1] + H + 4], [C[0], C[1] + 2 * H + 4]], color: [50, 57, 70] },
];

function background(x: number, y: number): Rgb {
  const d = Math.min(1, Math.hypot(x - SIZE / 2, y - SIZE / 2) / (SIZE * 0.72));
  return [28 - 16 * d, 33 - 18 * d, 46 - 24 * d];
}

function render(): Buffer {
  const data = new Uint8Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const px = x + (sx + 0.5) / SAMPLES;
          const py = y + (sy + 0.5) / SAMPLES;
          const face = FACES.find((f) => inside(px, py, f.poly));
          const color = face ? face.color : background(px, py);
          for (let c = 0; c < 3; c++) sum[c]! += color[c]!;
        }
      }
      for (let c = 0; c < 3; c++) data[(y * SIZE + x) * 3 + c] = Math.round(sum[c]! / (SAMPLES * SAMPLES));
    }
  }
  return encodePng({ width: SIZE, height: SIZE, channels: 3, data });
}

let cached: Buffer | undefined;

/** The placeholder PNG (rendered on first use, then shared; do not mutate it). */
export function placeholderPng(): Buffer {
  cached ??= render();
  return cached;
}
