/**
 * @module room-picture
 * A picture of what a room shows. One layer (or the room's entry): its result drawn by the
 * thumbnail renderers at the size asked, with the layer's look over the room's view where a
 * still picture can: the window and colour map of a volume (a categorical map draws it as
 * labels), slices or a projection by its mode, the camera's direction for a mesh, a cloud or a
 * projected volume (framed to fit: a picture shows the whole result). Several layers: the
 * whole scene in the room's frame (scene-picture.ts). Rendered square on the longer side, its
 * centre kept; encoded as a PNG.
 */
import type { SpecimenResult } from 'vitrine';
import type { RoomView } from '../client/wire-types.ts';
import { encodePng } from '../formats/png/encode-png.ts';
import { cropCentre, toBytes } from './canvas.ts';
import { COLORMAPS, type ColormapName } from './colormap.ts';
import { renderLooked } from './render-result.ts';
import { renderScene, type PictureLayer } from './scene-picture.ts';
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
  return name !== undefined && Object.hasOwn(COLORMAPS, name) ? (name as ColormapName) : undefined;
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

/** A PNG of `layers` (one, or a scene's, bottom first) as a room with `ask.view` shows them, `ask.width` × `ask.height` pixels. */
export function renderRoomPicture(layers: readonly PictureLayer[], ask: PictureAsk): Uint8Array {
  const size = Math.max(ask.width, ask.height);
  let canvas;
  if (layers.length === 1) {
    const { result, kind, display } = layers[0]!;
    // The layer's own look first, the room's view under it.
    const view: RoomView = { ...ask.view };
    if (display?.colormap) view.colormap = display.colormap;
    if (display?.window) view.window = display.window;
    // A categorical map, or a labels layer, asks for a volume's values as label ids.
    const labels = result.type === 'volume' && (view.colormap === 'glasbey' || kind === 'labels');
    canvas = renderLooked((labels ? { ...result, labels: true } : result) as SpecimenResult, size, lookOfView(view));
  } else {
    canvas = renderScene(layers, size, ask.view, anglesOf(ask.view));
  }
  canvas = cropCentre(canvas, ask.width, ask.height);
  return encodePng({ width: ask.width, height: ask.height, channels: 3, data: toBytes(canvas) });
}
