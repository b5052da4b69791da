/**
 * @module picture-marks
 * A room's marks over its picture, as the page draws them over the stage: a round marker for a
 * point (and at each end of a ruler or polyline), a line along a ruler or polyline, a box's
 * twelve edges, an ellipsoid's centre, each in its colour, over every layer (a mark inside a
 * volume still shows), and what the page writes beside it (label, measurement) on a dark plate
 * centred just above it. Markers and words are the page's size in pixels (a few, as the page's
 * scale bar writes), whatever the picture's size, so words never spread across the data.
 * A mark that names a layer is drawn through that layer's affine: its points are in its frame.
 */
import { hexRgb } from '../wire/layer-defaults.ts';
import type { AnnotationKind, Vec3 } from '../wire/scene-types.ts';
import { drawText, GLYPH, textWidth } from './bitmap-font.ts';
import { onScreen, type Camera } from './camera.ts';
import type { Canvas } from './canvas.ts';
import { drawBoxEdges, drawLine, drawMarker, fillBox, type Rgb } from './canvas-draw.ts';

/** A mark as the picture draws it. */
export interface PictureMark {
  kind: AnnotationKind;
  points: Vec3[];
  /** `#rrggbb`. */
  colour: string;
  /** Written beside it ('' nothing). */
  text: string;
  /** The affine of the layer whose frame its points are in (absent: the room's). */
  affine?: number[];
}

/** A marker's radius, pixels (the page's 12 px marker). */
const MARKER_RADIUS = 6;
/** The font's scale: its 7-pixel glyphs 14 pixels tall, near the page's 13 px text. */
const TEXT_SCALE = 2;
/** The page's text plate. */
const PLATE: Rgb = [11 / 255, 15 / 255, 21 / 255];

/** Draws `marks` on `canvas` (the camera's square) for a picture `height` pixels tall. */
export function drawMarks(canvas: Canvas, marks: readonly PictureMark[], camera: Camera, height: number): void {
  const lineWidth = Math.max(1.5, height / 400);
  for (const mark of marks) {
    const colour = (hexRgb(mark.colour) ?? [1, 1, 1]) as Rgb;
    const screen = mark.points.map((p) => onScreen(camera, p, mark.affine));
    if (screen.length === 0) continue;
    let anchor = screen[0]!;
    if (mark.kind === 'line' || mark.kind === 'polyline') {
      for (let i = 1; i < screen.length; i++) drawLine(canvas, screen[i - 1]!, screen[i]!, colour, lineWidth);
      const [a, b] = [screen[0]!, screen.at(-1)!];
      for (const end of [a, b]) drawMarker(canvas, end[0], end[1], MARKER_RADIUS, colour);
      anchor = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    } else if (mark.kind === 'box' && mark.points.length >= 2) {
      anchor = drawBox(canvas, mark, colour, camera, lineWidth);
    } else {
      drawMarker(canvas, anchor[0], anchor[1], MARKER_RADIUS, colour);
    }
    if (mark.text === '') continue;
    // As on the page: a plate the glyphs' height and a half, centred over the anchor, its bottom
    // six tenths of its height above it, so the marker stays seen.
    const plateHeight = Math.round(GLYPH.height * TEXT_SCALE * 1.5);
    const plateWidth = textWidth(mark.text, TEXT_SCALE) + plateHeight;
    const [left, top] = [anchor[0] - plateWidth / 2, anchor[1] - 1.6 * plateHeight];
    fillBox(canvas, left, top, plateWidth, plateHeight, PLATE, 0.8);
    drawText(canvas, mark.text, left + plateHeight / 2, top + (plateHeight - GLYPH.height * TEXT_SCALE) / 2, colour, TEXT_SCALE);
  }
}

/** A box's edges between its two opposite corners; answers its centre on screen. */
function drawBox(canvas: Canvas, mark: PictureMark, colour: Rgb, camera: Camera, width: number): [number, number] {
  const [a, b] = [mark.points[0]!, mark.points[1]!];
  // x fastest, then y, then z: the corner order drawBoxEdges reads.
  const corner = (i: number): Vec3 => [i & 1 ? b[0] : a[0], i & 2 ? b[1] : a[1], i & 4 ? b[2] : a[2]];
  const corners = Array.from({ length: 8 }, (_, i) => onScreen(camera, corner(i), mark.affine));
  drawBoxEdges(canvas, corners, colour, width);
  return [(corners[0]![0] + corners[7]![0]) / 2, (corners[0]![1] + corners[7]![1]) / 2];
}
