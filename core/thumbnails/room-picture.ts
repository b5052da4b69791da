/**
 * @module room-picture
 * A picture of what a room shows, drawn as the page draws it. Its layers (or the room's entry)
 * stand in the room's frame and are drawn by one camera set as the page sets its own
 * (picture-camera.ts: the room's camera, else the page's framing of them), each layer as the
 * page shows it (scene-picture.ts); then the room's marks over them (picture-marks.ts) and the
 * page's scale bar in the corner (picture-scale-bar.ts), whose label the PNG also carries as
 * its `Scale bar` text. A 2-D image alone has no place in a frame: it is drawn to fit (on its
 * longer side and cropped to its centre when its shape fits the picture, else on the shorter
 * side and centred). Encoded as a PNG.
 */
import type { ImageResult, SpecimenResult } from 'vitrine';
import type { RoomView } from '../wire/room-types.ts';
import { encodePng } from '../formats/png/encode-png.ts';
import { withPngText } from '../formats/png/png-text.ts';
import { createBackdrop, cropCentre, placeCentred, toBytes, type Canvas } from './canvas.ts';
import { pictureCamera } from './picture-camera.ts';
import { drawMarks, type PictureMark } from './picture-marks.ts';
import { drawScaleBar } from './picture-scale-bar.ts';
import { renderImage } from './render-image.ts';
import { renderScene, type PictureLayer } from './scene-picture.ts';
import { worldBounds } from './world-frame.ts';

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
