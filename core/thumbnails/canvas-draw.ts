/**
 * @module canvas-draw
 * Flat shapes over a picture, each blended over what is drawn (coverage from the distance to
 * the shape, so edges are smooth without supersampling): a box, a line of some width, the
 * edges of a box in space, and a marker disc with a dark rim, as the page draws a mark's point.
 */
import type { Canvas } from './canvas.ts';

/** RGB, each 0..1. */
export type Rgb = readonly [number, number, number];

/** Lays `colour` over pixel (x, y) with `alpha` (0..1); outside the canvas, nothing. */
export function blendPixel(canvas: Canvas, x: number, y: number, colour: Rgb, alpha: number): void {
  if (x < 0 || y < 0 || x >= canvas.width || y >= canvas.height || !(alpha > 0)) return;
  const a = Math.min(1, alpha);
  const i = (y * canvas.width + x) * 3;
  for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * (1 - a) + colour[k]! * a;
}

/** Fills the box from (x, y), `width` × `height` pixels, with `colour` at `alpha`. */
export function fillBox(canvas: Canvas, x: number, y: number, width: number, height: number, colour: Rgb, alpha = 1): void {
  for (let py = Math.round(y); py < Math.round(y + height); py++) {
    for (let px = Math.round(x); px < Math.round(x + width); px++) blendPixel(canvas, px, py, colour, alpha);
  }
}

/** A line from `a` to `b` (pixel coordinates), `width` pixels wide, in `colour`. */
export function drawLine(canvas: Canvas, a: readonly number[], b: readonly number[], colour: Rgb, width: number): void {
  const [ax, ay] = [a[0]!, a[1]!], [bx, by] = [b[0]!, b[1]!];
  const half = width / 2;
  const dx = bx - ax, dy = by - ay;
  const length2 = dx * dx + dy * dy || 1;
  const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - half - 1)), x1 = Math.min(canvas.width - 1, Math.ceil(Math.max(ax, bx) + half + 1));
  const y0 = Math.max(0, Math.floor(Math.min(ay, by) - half - 1)), y1 = Math.min(canvas.height - 1, Math.ceil(Math.max(ay, by) + half + 1));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const px = x + 0.5, py = y + 0.5;
      const t = Math.min(1, Math.max(0, ((px - ax) * dx + (py - ay) * dy) / length2));
      const distance = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
      blendPixel(canvas, x, y, colour, half + 0.5 - distance);
    }
  }
}

/**
 * The twelve edges of a box in space from its eight corners on screen. Corners run x fastest,
 * then y, then z: corners one bit apart share an edge.
 */
export function drawBoxEdges(canvas: Canvas, corners: readonly (readonly number[])[], colour: Rgb, width: number): void {
  for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) drawLine(canvas, corners[i]!, corners[i | bit]!, colour, width);
}

/** A disc of `radius` pixels at (cx, cy) in `colour`, with a dark rim a fifth of its radius wide. */
export function drawMarker(canvas: Canvas, cx: number, cy: number, radius: number, colour: Rgb): void {
  const rim = Math.max(1, radius * 0.2);
  const reach = Math.ceil(radius + 1);
  for (let y = Math.floor(cy) - reach; y <= Math.floor(cy) + reach; y++) {
    for (let x = Math.floor(cx) - reach; x <= Math.floor(cx) + reach; x++) {
      const distance = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      blendPixel(canvas, x, y, [0, 0, 0], (radius + 0.5 - distance) * 0.75);
      blendPixel(canvas, x, y, colour, radius - rim + 0.5 - distance);
    }
  }
}
