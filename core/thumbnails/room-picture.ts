/**
 * @module room-picture
 * A picture of what a room shows, drawn as the page draws it. Its layers (or the room's entry)
 * stand in the room's frame and are drawn by one camera set as the page sets its own, each
 * layer as the page shows it (scene-picture.ts); then the room's marks over them
 * (picture-marks.ts) and the page's scale bar in the corner, whose label the PNG also carries
 * as its `Scale bar` text. A 2-D image alone has no place in a frame: it is drawn to fit (on
 * its longer side and cropped to its centre when its shape fits the picture, else on the
 * shorter side and centred). Encoded as a PNG.
 *
 * The camera is set so the subject stands where the page shows it and a length spans as many
 * pixels: the room's camera when it has one (looking from its position at its target), else
 * the page's framing of every layer's box (its bounding sphere, seen from the page's opening
 * direction at the distance that fits it in the page's field of view). The page looks in
 * perspective; the picture's renderers draw orthographically, at the scale the perspective
 * has at the target's depth: the depth the page's scale bar measures at, so both bars read
 * the same. The page's field of view spans its height; a picture framed by the page's rule
 * spans its shorter side with it, so a tall picture still shows the whole subject (a room's
 * camera spans the height, as on the page).
 *
 * The scale bar sits in the lower right corner as the page puts it: a round length
 * (round-length.ts, the page's own rule and longest bar) at the scale the picture's camera
 * gives the target's depth, drawn as a bracket over its label (`10 mm`, or `units` when the
 * result states none) on a dark plate. A picture too small for it has none.
 */
import type { ImageResult, SpecimenResult } from 'vitrine';
import type { RoomView } from '../wire/room-types.ts';
import { encodePng } from '../formats/png/encode-png.ts';
import { withPngText } from '../formats/png/png-text.ts';
import { createBackdrop, cropCentre, placeCentred, toBytes, type Canvas } from './canvas.ts';
import { drawMarks, type PictureMark } from './picture-marks.ts';
import { renderImage } from './render-image.ts';
import { renderScene, type PictureLayer } from './scene-picture.ts';
import { worldBounds, type Vec3 } from './world-frame.ts';
import { formatLength, SCALE_BAR_MAX_PX, scaleBarLength } from '../wire/round-length.ts';
import { drawText, GLYPH, textWidth } from './bitmap-font.ts';
import type { Camera } from './camera.ts';
import { fillBox, type Rgb } from './canvas-draw.ts';

/** The page's bar colours: its text (`--text`) and its plate (with the plate's opacity). */
const TEXT: Rgb = [227 / 255, 234 / 255, 243 / 255];
const PLATE: Rgb = [12 / 255, 17 / 255, 24 / 255];
const PLATE_ALPHA = 0.72;

/**
 * Draws the bar for `unitsPerPixel` in `unit` (null: none stated) on `canvas`; answers its
 * label, or null when there is none (no scale, or no room for it).
 */
function drawScaleBar(canvas: Canvas, unitsPerPixel: number, unit: string | null): string | null {
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

/** The page camera's vertical field of view, radians. */
const PAGE_FOV = (45 * Math.PI) / 180;

/** How far past the subject's sphere the page frames it. */
const FRAME_MARGIN = 1.15;

/** The page's opening direction, from the subject towards the camera. */
const FRAME_DIRECTION: Vec3 = [0.8, 0.55, 1];

/** A picture's camera: drawing `size` pixels square, of which the centre `width` × `height` is kept. */
interface PictureCamera {
  camera: Camera;
  /** Physical units one pixel spans at the target's depth. */
  unitsPerPixel: number;
}

/** A direction as the renderers' angles: turn about the vertical, then tilt (looking down is positive). */
function anglesOf([dx, dy, dz]: readonly number[]): { yaw: number; pitch: number } {
  return { yaw: Math.atan2(dx!, dz!), pitch: Math.atan2(dy!, Math.hypot(dx!, dz!)) };
}

/** Where the camera looks from, how far from its target, and the target; null without a usable room camera. */
function roomPose(view: RoomView): { centre: Vec3; distance: number; direction: Vec3 } | null {
  const camera = view.camera;
  if (!camera) return null;
  const direction = [0, 1, 2].map((k) => camera.position[k]! - camera.target[k]!) as Vec3;
  const distance = Math.hypot(...direction);
  if (!(distance > 0) || !Number.isFinite(distance)) return null;
  return { centre: [...camera.target] as Vec3, distance, direction };
}

/** The page's framing of `boxes` (their joint box's bounding sphere), or null when there is none. */
function framedPose(boxes: readonly { min: Vec3; max: Vec3 }[]): { centre: Vec3; distance: number; direction: Vec3 } | null {
  if (boxes.length === 0) return null;
  const min = [0, 1, 2].map((k) => Math.min(...boxes.map((b) => b.min[k]!)));
  const max = [0, 1, 2].map((k) => Math.max(...boxes.map((b) => b.max[k]!)));
  const centre = [0, 1, 2].map((k) => (min[k]! + max[k]!) / 2) as Vec3;
  const radius = Math.max(Math.hypot(...[0, 1, 2].map((k) => max[k]! - min[k]!)) / 2, 1e-6);
  return { centre, distance: (radius / Math.sin(PAGE_FOV / 2)) * FRAME_MARGIN, direction: FRAME_DIRECTION };
}

/**
 * The camera for a `width` × `height` picture of what `boxes` bound (room coordinates) with
 * the room's `view`; null when there is nothing to frame and no room camera.
 */
function pictureCamera(boxes: readonly { min: Vec3; max: Vec3 }[], view: RoomView, width: number, height: number): PictureCamera | null {
  const room = roomPose(view);
  const pose = room ?? framedPose(boxes);
  if (!pose) return null;
  const size = Math.max(width, height);
  const unitsPerPixel = (2 * pose.distance * Math.tan(PAGE_FOV / 2)) / (room ? height : Math.min(width, height));
  const camera: Camera = { centre: pose.centre, halfExtent: (unitsPerPixel * size) / 2, ...anglesOf(pose.direction), size };
  return { camera, unitsPerPixel };
}

/** What a picture is asked for: its size in pixels, the room's view, its marks and the unit of its frame. */
export interface PictureAsk {
  width: number;
  height: number;
  view: RoomView;
  marks?: PictureMark[];
  /** The length unit of the room's frame (the entry's result's), null or absent when it states none. */
  unit?: string | null;
}

/** Draws a room's picture of `layers` (bottom first) off the event loop (the encode pool's `roomPicture` task). */
export type PictureRunner = (layers: PictureLayer[], ask: PictureAsk) => Promise<Uint8Array>;

/** Whether a 2-D image drawn to fit a `side` square (its longer side) fits `width` × `height` whole. */
function imageFits(image: ImageResult, side: number, width: number, height: number): boolean {
  const scale = Math.max(image.width, image.height) / side;
  return Math.round(image.width / scale) <= width && Math.round(image.height / scale) <= height;
}

/** A 2-D image alone, drawn to fit the picture. */
function imagePicture(image: ImageResult, width: number, height: number): Canvas {
  const longer = Math.max(width, height), shorter = Math.min(width, height);
  if (width === height || imageFits(image, longer, width, height)) return cropCentre(renderImage(image, longer), width, height);
  return placeCentred(renderImage(image, shorter), createBackdrop(shorter, shorter), width, height);
}

/** A PNG of `layers` (one, or a scene's, bottom first) as a room with `ask.view` shows them, `ask.width` × `ask.height` pixels. */
export function renderRoomPicture(layers: readonly PictureLayer[], ask: PictureAsk): Uint8Array {
  const { width, height, view } = ask;
  const shown = layers.filter((layer) => layer.display?.visible !== false);
  const boxes = shown.map((layer) => worldBounds(layer.result as SpecimenResult, layer.display?.affine)).filter((box) => box !== null);
  const framed = boxes.length > 0 ? pictureCamera(boxes, view, width, height) : null;
  let canvas: Canvas;
  let label: string | null = null;
  if (framed) {
    const square = renderScene(shown, framed.camera, view);
    drawMarks(square, ask.marks ?? [], framed.camera, height);
    canvas = placeCentred(square, createBackdrop(framed.camera.size, framed.camera.size), width, height);
    label = drawScaleBar(canvas, framed.unitsPerPixel, ask.unit ?? null);
  } else {
    const image = shown.find((layer) => layer.result.type === 'image')?.result as ImageResult | undefined;
    canvas = image ? imagePicture(image, width, height) : createBackdrop(width, height);
  }
  const png = encodePng({ width, height, channels: 3, data: toBytes(canvas) });
  return label ? withPngText(png, { 'Scale bar': label }) : png;
}
