/**
 * @module scene-picture
 * A picture of a room's whole scene: every visible layer drawn by one camera in the room's
 * frame (their joint bounds framed, seen from the room camera's direction), bottom layer
 * first, each over what is below it with its opacity. Volumes are ray-marched through their
 * placement (a segmentation as its first labelled voxels), meshes rasterised with their depth,
 * clouds splatted; each layer's colour map, window and gamma come from the layer, else from the
 * room's view. A 2-D image has no place in the room's frame and is left out of a scene picture.
 */
import type { SpecimenResult, VolumeResult } from 'vitrine';
import type { LayerDisplay, LayerKind } from '../wire/scene-types.ts';
import type { RoomView } from '../wire/wire-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { Camera } from './camera.ts';
import { createBackdrop, type Canvas } from './canvas.ts';
import { isScalarColormap, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';
import { renderMesh } from './render-mesh.ts';
import { renderPoints } from './render-points.ts';
import { stepOf } from './render-result.ts';
import { DEFAULT_LOOK } from './thumbnail-looks.ts';
import { frameBounds, placed, worldBounds } from './world-frame.ts';
import { renderVolumeInWorld } from './world-volume.ts';

/** One layer of a picture: its result, and how the room's scene shows it. */
export interface PictureLayer {
  result: StoredResult;
  kind?: LayerKind;
  display?: LayerDisplay;
}

/** The default direction of a picture whose room has no camera: a three-quarter view. */
const DEFAULT_ANGLES = { yaw: 0.55, pitch: 0.4 };

function mapOf(name: string | undefined): ColormapName | undefined {
  return isScalarColormap(name) ? name : undefined;
}

/** The linear part of an affine (for directions: normals). */
function linear(affine: readonly number[]): number[] {
  return [...affine.slice(0, 3), 0, ...affine.slice(4, 7), 0, ...affine.slice(8, 11), 0, 0, 0, 0, 1];
}

/** A mesh or a cloud with nothing in it: what its renderer draws as bare backdrop. */
export function emptyLike(result: StoredResult): StoredResult {
  if (result.type === 'mesh') return { ...result, vertices: new Float32Array(0), indices: new Uint32Array(0), normals: undefined } as StoredResult;
  return { ...result, points: new Float32Array(0), colors: undefined, scalars: undefined } as StoredResult;
}

function drawLayer(layer: PictureLayer, camera: Camera, view: RoomView): Canvas | null {
  const result = layer.result as SpecimenResult;
  const display = layer.display ?? {};
  const affine = display.affine;
  const colormap = mapOf(display.colormap) ?? mapOf(view.colormap);
  if ('vertices' in result) {
    const normals = result.normals && affine ? placed(result.normals, linear(affine)) : affine ? undefined : result.normals;
    const mesh = { ...result, vertices: placed(result.vertices, affine), normals };
    return renderMesh(mesh, camera.size, DEFAULT_LOOK.mesh, camera);
  }
  if ('points' in result) return renderPoints({ ...result, points: placed(result.points, affine) }, camera.size, colormap ? { colormap } : {}, camera);
  if ('shape' in result) {
    const volume = stepOf(result, display.t);
    if (layer.kind === 'labels' || volume.labels) return renderVolumeInWorld(volume, camera, affine, { labels: true });
    const window = display.window ?? view.window;
    return renderVolumeInWorld(volume as VolumeResult, camera, affine, {
      colormap: colormap ?? (window ? 'gray' : DEFAULT_LOOK.volume.colormap),
      ...(window ? { window } : {}),
      ...(display.gamma !== undefined ? { gamma: display.gamma } : {}),
    });
  }
  return null;
}

/** Draws `layers` (bottom first) on a `size` × `size` canvas as the room with `view` shows them. */
export function renderScene(layers: readonly PictureLayer[], size: number, view: RoomView, angles?: { yaw: number; pitch: number } | null): Canvas {
  const shown = layers.filter((layer) => layer.display?.visible !== false);
  const boxes = shown.map((layer) => worldBounds(layer.result as SpecimenResult, layer.display?.affine)).filter((box) => box !== null);
  const canvas = createBackdrop(size, size);
  if (boxes.length === 0) return canvas;
  const { yaw, pitch } = angles ?? DEFAULT_ANGLES;
  const camera = frameBounds(boxes, size, yaw, pitch);
  for (const layer of shown) {
    const drawn = drawLayer(layer, camera, view);
    if (!drawn) continue;
    // The same renderer's bare backdrop (a supersampled one is not the plain one to the bit).
    const supersampled = layer.result.type === 'mesh' || layer.result.type === 'point_cloud';
    const bare = supersampled ? drawLayer({ ...layer, result: emptyLike(layer.result) }, camera, view) : null;
    const backdrop = (bare ?? createBackdrop(size, size)).rgb;
    const opacity = layer.display?.opacity ?? 1;
    // Where the layer drew (its pixels differ from the bare backdrop), it covers what is below.
    for (let i = 0; i < canvas.rgb.length; i += 3) {
      if (drawn.rgb[i] === backdrop[i] && drawn.rgb[i + 1] === backdrop[i + 1] && drawn.rgb[i + 2] === backdrop[i + 2]) continue;
      for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * (1 - opacity) + drawn.rgb[i + k]! * opacity;
    }
  }
  return canvas;
}
