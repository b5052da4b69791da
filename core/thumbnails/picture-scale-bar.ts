/**
 * @module picture-scale-bar
 * The page's scale bar in a room's picture, in the lower right corner as the page puts it: a
 * round length (round-length.ts, the page's own rule and longest bar) at the scale the
 * picture's camera gives the target's depth, drawn as a bracket over its label (`10 mm`, or
 * `units` when the result states none) on a dark plate. A picture too small for it has none.
 */
import { formatLength, SCALE_BAR_MAX_PX, scaleBarLength } from '../wire/round-length.ts';
import { drawText, GLYPH, textWidth } from './bitmap-font.ts';
import type { Canvas } from './canvas.ts';
import { fillBox, type Rgb } from './canvas-draw.ts';

/** The page's bar colours: its text (`--text`) and its plate (with the plate's opacity). */
const TEXT: Rgb = [227 / 255, 234 / 255, 243 / 255];
const PLATE: Rgb = [12 / 255, 17 / 255, 24 / 255];
const PLATE_ALPHA = 0.72;

/**
 * Draws the bar for `unitsPerPixel` in `unit` (null: none stated) on `canvas`; answers its
 * label, or null when there is none (no scale, or no room for it).
 */
export function drawScaleBar(canvas: Canvas, unitsPerPixel: number, unit: string | null): string | null {
  const { width, height } = canvas;
  // The longest bar the picture has room for: the page's, or less in a small picture.
  const bar = scaleBarLength(unitsPerPixel, Math.min(SCALE_BAR_MAX_PX, width * 0.3));
  if (!bar) return null;
  const label = formatLength(bar, unit);
  // The page's CSS pixels in a picture of a page's size; half of them in a small picture.
  const big = height >= 300;
  const scale = big ? 2 : 1;
  const [margin, padX, padY, gap, tick, stroke] = big ? [14, 8, 5, 3, 6, 2] : [6, 4, 3, 2, 3, 1];
  const innerWidth = Math.max(bar.pixels, textWidth(label, scale));
  const plateWidth = innerWidth + 2 * padX;
  const plateHeight = padY * 2 + tick + gap + GLYPH.height * scale;
  if (plateWidth + 2 * margin > width || plateHeight + 2 * margin > height) return null;
  const right = width - margin, bottom = height - margin;
  fillBox(canvas, right - plateWidth, bottom - plateHeight, plateWidth, plateHeight, PLATE, PLATE_ALPHA);
  // A bracket open at the top: the bar's length between the outer edges of its ends.
  const barRight = right - padX, barLeft = barRight - bar.pixels, barTop = bottom - plateHeight + padY;
  fillBox(canvas, barLeft, barTop + tick - stroke, bar.pixels, stroke, TEXT);
  fillBox(canvas, barLeft, barTop, stroke, tick, TEXT);
  fillBox(canvas, barRight - stroke, barTop, stroke, tick, TEXT);
  drawText(canvas, label, barRight - textWidth(label, scale), barTop + tick + gap, TEXT, scale);
  return label;
}
