/**
 * @module room-picture
 * A picture of what a room shows. One layer (or the room's entry): its result drawn by the
 * thumbnail renderers at the size asked, with the layer's look over the room's view where a
 * still picture can: the window and colour map of a volume (a categorical map draws it as
 * labels), slices or a projection by its mode, the camera's direction for a mesh, a cloud or a
 * projected volume (framed to fit: a picture shows the whole result). Several layers: the
 * whole scene in the room's frame (scene-picture.ts). The renderers draw squares; a picture of
 * another shape still shows the whole result: drawn square on its shorter side and centred on a
 * backdrop of the asked size. A 2-D image whose shape fits the picture is drawn on the longer
 * side and its centre kept instead, so it loses no resolution. Encoded as a PNG.
 */
import type { SpecimenResult } from 'vitrine';
import type { RoomView } from '../wire/wire-types.ts';
import { encodePng } from '../formats/png/encode-png.ts';
import { createBackdrop, cropCentre, placeCentred, toBytes, type Canvas } from './canvas.ts';
import { isScalarColormap, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';
import { renderLooked } from './render-result.ts';
import { emptyLike, renderScene, type PictureLayer } from './scene-picture.ts';
import { DEFAULT_LOOK, type Look } from './thumbnail-looks.ts';

/** What a picture is asked for: its size in pixels and the room's view. */
export interface PictureAsk {
  width: number;
  height: number;
  view: RoomView;
}

/** Draws a room's picture of `layers` (bottom first) off the event loop (the encode pool's `roomPicture` task). */
export type PictureRunner = (layers: PictureLayer[], ask: PictureAsk) => Promise<Uint8Array>;

/** A camera's direction as the renderers' angles: turn about the vertical, then tilt (looking down is positive). */
function anglesOf(view: RoomView): { yaw: number; pitch: number } | null {
  const camera = view.camera;
  if (!camera) return null;
  const [dx, dy, dz] = [0, 1, 2].map((k) => camera.position[k]! - camera.target[k]!) as [number, number, number];
  if (dx === 0 && dy === 0 && dz === 0) return null;
  return { yaw: Math.atan2(dx, dz), pitch: Math.atan2(dy, Math.hypot(dx, dz)) };
}

function continuousMap(name: string | undefined): ColormapName | undefined {
  return isScalarColormap(name) ? name : undefined;
}

/** The renderers' look for `view`. */
export function lookOfView(view: RoomView): Look {
  const angles = anglesOf(view) ?? {};
  const colormap = continuousMap(view.colormap);
  return {
    mesh: { ...DEFAULT_LOOK.mesh, ...angles },
    points: { ...angles, ...(colormap ? { colormap } : {}) },
    volume: {
      mode: view.mode === 'slices' ? 'slice' : 'mip',
      colormap: colormap ?? (view.window ? 'gray' : DEFAULT_LOOK.volume.colormap),
      ...(view.window ? { window: view.window } : {}),
      ...angles,
    },
  };
}

/** Whether a 2-D image drawn to fit a `side` square (its longer side) fits `width` × `height` whole. */
function imageFits(result: SpecimenResult, side: number, width: number, height: number): boolean {
  if (!('width' in result) || 'shape' in result) return false;
  const scale = Math.max(result.width, result.height) / side;
  return Math.round(result.width / scale) <= width && Math.round(result.height / scale) <= height;
}

/** Draws `layers` on a `size` square, with what the same drawing leaves where it draws nothing. */
function renderSquare(layers: readonly PictureLayer[], size: number, view: RoomView): { drawn: Canvas; bare: () => Canvas } {
  if (layers.length > 1) return { drawn: renderScene(layers, size, view, anglesOf(view)), bare: () => createBackdrop(size, size) };
  const { result, kind, display } = layers[0]!;
  // The layer's own look first, the room's view under it.
  const looked: RoomView = { ...view };
  if (display?.colormap) looked.colormap = display.colormap;
  if (display?.window) looked.window = display.window;
  // A categorical map, or a labels layer, asks for a volume's values as label ids.
  const labels = result.type === 'volume' && (looked.colormap === 'glasbey' || kind === 'labels');
  const look = lookOfView(looked);
  const drawn = renderLooked((labels ? { ...result, labels: true } : result) as SpecimenResult, size, look);
  // A supersampled renderer's bare backdrop is not the plain one to the bit: draw it empty.
  const supersampled = 'vertices' in result || 'points' in result;
  return { drawn, bare: () => (supersampled ? renderLooked(emptyLike(result) as SpecimenResult, size, look) : createBackdrop(size, size)) };
}

/** A PNG of `layers` (one, or a scene's, bottom first) as a room with `ask.view` shows them, `ask.width` × `ask.height` pixels. */
export function renderRoomPicture(layers: readonly PictureLayer[], ask: PictureAsk): Uint8Array {
  const { width, height } = ask;
  const longer = Math.max(width, height), shorter = Math.min(width, height);
  const only = layers.length === 1 ? (layers[0]!.result as SpecimenResult) : null;
  let canvas: Canvas;
  if (width === height || (only && imageFits(only, longer, width, height))) {
    canvas = cropCentre(renderSquare(layers, longer, ask.view).drawn, width, height);
  } else {
    const { drawn, bare } = renderSquare(layers, shorter, ask.view);
    canvas = placeCentred(drawn, bare(), width, height);
  }
  return encodePng({ width, height, channels: 3, data: toBytes(canvas) });
}
