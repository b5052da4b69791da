/**
 * @module picture-marks
 * A room's marks over its picture, as the page draws them over the stage: a round marker for a
 * point (and at each end of a ruler or polyline), a line along a ruler or polyline, a box's
 * twelve edges, an ellipsoid's centre, each in its colour, over every layer (a mark inside a
 * volume still shows), and what the page writes beside it (label, measurement) on a dark plate
 * centred just above it, the page's text height.
 * A mark that names a layer is drawn through that layer's affine: its points are in its frame.
 */
import { applyAffine } from '../annotations/layer-frame.ts';
import { hexRgb } from '../wire/layer-defaults.ts';
import type { AnnotationKind, Vec3 } from '../wire/scene-types.ts';
import { drawText, GLYPH, textWidth } from './bitmap-font.ts';
import { project, type Camera } from './camera.ts';
import type { Canvas } from './canvas.ts';
import { drawLine, drawMarker, fillBox, type Rgb } from './canvas-draw.ts';

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

/** A marker's radius and a text's plate height as shares of the picture's height (the page's, at its field of view). */
const MARKER_RADIUS = 0.011;
const TEXT_HEIGHT = 0.048;
/** The page's text plate. */
const PLATE: Rgb = [11 / 255, 15 / 255, 21 / 255];

/** Draws `marks` on `canvas` (the camera's square) for a picture `height` pixels tall. */
export function drawMarks(canvas: Canvas, marks: readonly PictureMark[], camera: Camera, height: number): void {
  const radius = Math.max(3, height * MARKER_RADIUS);
  const lineWidth = Math.max(1.5, height / 400);
  // The plate is the glyphs' height and a half: the page's 40 px font on a 60 px plate.
  const scale = Math.max(1, Math.round((height * TEXT_HEIGHT) / (GLYPH.height * 1.5)));
  const out = new Float64Array(3);
  for (const mark of marks) {
    const colour = (hexRgb(mark.colour) ?? [1, 1, 1]) as Rgb;
    const screen = mark.points.map((p) => {
      const [x, y, z] = mark.affine ? applyAffine(mark.affine, p) : p;
      project(camera, x, y, z, out);
      return [out[0]!, out[1]!] as [number, number];
    });
    if (screen.length === 0) continue;
    let anchor = screen[0]!;
    if (mark.kind === 'line' || mark.kind === 'polyline') {
      for (let i = 1; i < screen.length; i++) drawLine(canvas, screen[i - 1]!, screen[i]!, colour, lineWidth);
      const [a, b] = [screen[0]!, screen.at(-1)!];
      for (const end of [a, b]) drawMarker(canvas, end[0], end[1], radius, colour);
      anchor = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    } else if (mark.kind === 'box' && mark.points.length >= 2) {
      anchor = drawBox(canvas, mark, colour, camera, lineWidth);
    } else {
      drawMarker(canvas, anchor[0], anchor[1], radius, colour);
    }
    if (mark.text === '') continue;
    // Centred over the anchor, its bottom six tenths of its height above it, so the marker stays seen.
    const plateHeight = Math.round(GLYPH.height * scale * 1.5);
    const plateWidth = textWidth(mark.text, scale) + plateHeight;
    const [left, top] = [anchor[0] - plateWidth / 2, anchor[1] - 1.6 * plateHeight];
    fillBox(canvas, left, top, plateWidth, plateHeight, PLATE, 0.8);
    drawText(canvas, mark.text, left + plateHeight / 2, top + (plateHeight - GLYPH.height * scale) / 2, colour, scale);
  }
}

/** A box's edges between its two opposite corners; answers its centre on screen. */
function drawBox(canvas: Canvas, mark: PictureMark, colour: Rgb, camera: Camera, width: number): [number, number] {
  const [a, b] = [mark.points[0]!, mark.points[1]!];
  const out = new Float64Array(3);
  const corner = (i: number): [number, number] => {
    const p: Vec3 = [i & 1 ? b[0] : a[0], i & 2 ? b[1] : a[1], i & 4 ? b[2] : a[2]];
    const [x, y, z] = mark.affine ? applyAffine(mark.affine, p) : p;
    project(camera, x, y, z, out);
    return [out[0]!, out[1]!];
  };
  const corners = Array.from({ length: 8 }, (_, i) => corner(i));
  for (let i = 0; i < 8; i++) for (const bit of [1, 2, 4]) if (!(i & bit)) drawLine(canvas, corners[i]!, corners[i | bit]!, colour, width);
  return [(corners[0]![0] + corners[7]![0]) / 2, (corners[0]![1] + corners[7]![1]) / 2];
}
