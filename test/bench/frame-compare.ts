/**
 * @module frame-compare
 * Two screenshots of the stage compared by structure, not pixel for pixel (two pages draw the
 * same room with software WebGL, and a volume's ray march may differ in its last bits): the
 * share of each image that is drawn (not the dark background), the mean hue of what is drawn,
 * and a grid of regions whose mean colours are compared cell by cell.
 */
import type { PNG } from 'pngjs';

interface Hsv {
  h: number;
  s: number;
  v: number;
}

function hsvAt(png: PNG, x: number, y: number): Hsv {
  const i = (y * png.width + x) * 4;
  const [r, g, b] = [png.data[i]! / 255, png.data[i + 1]! / 255, png.data[i + 2]! / 255];
  const v = Math.max(r, g, b);
  const d = v - Math.min(r, g, b);
  const h = d === 0 ? 0 : v === r ? 60 * (((g - b) / d + 6) % 6) : v === g ? 60 * ((b - r) / d + 2) : 60 * ((r - g) / d + 4);
  return { h, s: v === 0 ? 0 : d / v, v };
}

/** What an image shows, read from its pixels. */
export interface FrameStructure {
  /** Share of pixels drawn brighter than the background. */
  drawn: number;
  /** Circular mean hue (degrees) of the saturated pixels; null when none is. */
  hue: number | null;
  /** Mean RGB of each cell of a COLS × ROWS grid, row by row. */
  cells: [number, number, number][];
}

const COLS = 16;
const ROWS = 10;

export function structureOf(png: PNG): FrameStructure {
  let drawn = 0;
  let [sx, sy] = [0, 0];
  const sums = Array.from({ length: COLS * ROWS }, () => [0, 0, 0, 0]);
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const p = hsvAt(png, x, y);
      if (p.v > 0.25) drawn++;
      if (p.s > 0.35 && p.v > 0.25) [sx, sy] = [sx + Math.cos((p.h * Math.PI) / 180), sy + Math.sin((p.h * Math.PI) / 180)];
      const cell = sums[Math.floor((y * ROWS) / png.height) * COLS + Math.floor((x * COLS) / png.width)]!;
      const i = (y * png.width + x) * 4;
      for (let c = 0; c < 3; c++) cell[c]! += png.data[i + c]!;
      cell[3]!++;
    }
  }
  const hue = sx === 0 && sy === 0 ? null : ((Math.atan2(sy, sx) * 180) / Math.PI + 360) % 360;
  const cells = sums.map(([r, g, b, n]) => [r! / n!, g! / n!, b! / n!] as [number, number, number]);
  return { drawn: drawn / (png.width * png.height), hue, cells };
}

/** How two frames differ: the largest cell difference (0..255 in one channel), cells off by more than 16, drawn shares, hues. */
export interface FrameDifference {
  /** Share of pixels off by more than 32 in a channel (0 when the two are drawn alike to the pixel). */
  pixelsOff: number;
  worstCell: number;
  cellsOff: number;
  cells: number;
  drawn: [number, number];
  hue: [number | null, number | null];
}

export function compareFrames(a: PNG, b: PNG): FrameDifference {
  const [sa, sb] = [structureOf(a), structureOf(b)];
  const offs = sa.cells.map((cell, i) => Math.max(...cell.map((v, c) => Math.abs(v - sb.cells[i]![c]!))));
  let pixelsOff = 0;
  for (let i = 0; i < Math.min(a.data.length, b.data.length); i += 4) {
    if ([0, 1, 2].some((c) => Math.abs(a.data[i + c]! - b.data[i + c]!) > 32)) pixelsOff++;
  }
  const sizes = a.width === b.width && a.height === b.height ? 1 : NaN;
  return {
    pixelsOff: (sizes * pixelsOff) / (a.width * a.height),
    worstCell: Math.max(...offs),
    cellsOff: offs.filter((off) => off > 16).length,
    cells: offs.length,
    drawn: [sa.drawn, sb.drawn],
    hue: [sa.hue, sb.hue],
  };
}
