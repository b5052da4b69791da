/**
 * @module scene-picture
 * A picture of a room's layers: each drawn by one camera in the room's frame, bottom layer
 * first, each over what is below it with its opacity (but behind a surface drawn before it that
 * lies in front, as the page's depth test has it), and each as the page draws it. A layer
 * takes its own look (mode, colour map, window, gamma, opacity); the room's view fills in what
 * the active layer (the room's entry) leaves unset, as on the page, where the view applies to
 * the content the page shows; then the page's defaults (layer-defaults.ts). A volume is drawn
 * as the page's three slices unless its mode is `volume` (ray marched: a maximum-intensity
 * projection), a segmentation's in its labels' colours, with its box's edges either way;
 * meshes in the colour the page gives them (their segment's, their specimen's, else the
 * page's blue), rasterised with depth; clouds splatted, their scalars through the page's map.
 * A 2-D image has no place in the room's frame and is left out here.
 *
 * A volume as the page opens it: three orthogonal slices through its middle voxel (one across
 * each axis), drawn in the room's frame as a shared camera sees them, the nearest slice in
 * front. Each pixel's ray is carried into voxel coordinates (world-volume.ts) and met with the
 * three planes; the voxel hit is coloured as the page colours it: an image through its colour
 * map over its window (the page's opening window, window-level.ts, unless the layer or room
 * gives one), values under the page's see-through floor letting the ray pass on; a
 * segmentation in its labels' colours, background passing. Nearest voxel, as the page's slices.
 */
import type { SpecimenResult, VolumeResult } from 'vitrine';
import { isScalarColormap, sampleColormap, type ScalarColormap } from '../wire/colormaps.ts';
import { DEFAULT_MESH_COLOUR, DEFAULT_COLORMAP, DEFAULT_VOLUME_MODE, hexRgb, VOLUME_BOX_COLOUR } from '../wire/layer-defaults.ts';
import type { LayerDisplay, LayerKind } from '../wire/scene-types.ts';
import type { RoomView } from '../wire/room-types.ts';
import { defaultWindow } from '../wire/window-level.ts';
import { valueRange } from '../envelope/value-range.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { fromView, onScreen, type Camera } from './camera.ts';
import { createBackdrop, type Canvas } from './canvas.ts';
import { drawBoxEdges, type Rgb } from './canvas-draw.ts';
import { labelColours } from './render-labels.ts';
import { renderMesh } from './render-mesh.ts';
import { renderPoints } from './render-points.ts';
import { stepOf } from './render-result.ts';
import { placed, volumeCorners, voxelGrid, type Vec3 } from './world-frame.ts';
import { renderVolumeInWorld, roomToVoxel, type WorldVolumeLook } from './world-volume.ts';

/** A voxel's colour (written to `out`), or false when it is see-through, for `look`. */
function colourer(volume: VolumeResult, look: WorldVolumeLook): (value: number, out: Float64Array) => boolean {
  if (look.labels) {
    const colourOf = labelColours(volume);
    return (id, out) => {
      if (id === 0) return false;
      out.set(colourOf(id));
      return true;
    };
  }
  // The finite range of the data, [0, 1] when it has none.
  const [min, max] = valueRange(volume.data) ?? [0, 1];
  const opening = defaultWindow(volume.data, min, max);
  // The floor is a share of the colour map, fixed when the page opens the volume; a window given later keeps it.
  const floor = Math.max(3, Math.min(255, Math.round(((opening.floor - opening.low) / (opening.high - opening.low || 1)) * 255)));
  const [low, high] = look.window ?? [opening.low, opening.high];
  const gamma = look.gamma ?? 1;
  return (value, out) => {
    const t = Math.max(0, Math.min(1, (value - low) / (high - low || 1)));
    const index = Math.round((gamma === 1 ? t : t ** gamma) * 255);
    if (index < floor) return false;
    sampleColormap(look.colormap, index / 255, out);
    return true;
  };
}

/** Draws `volume`'s three middle slices, placed by `affine`, as `camera` sees them. */
function renderSlicesInWorld(volume: VolumeResult, camera: Camera, affine: readonly number[] | undefined, look: WorldVolumeLook): Canvas {
  const size = camera.size;
  const [nz, ny, nx] = voxelGrid(volume).shape;
  const n: Vec3 = [nx, ny, nz];
  const middle: Vec3 = [Math.floor(nx / 2), Math.floor(ny / 2), Math.floor(nz / 2)];
  const m = roomToVoxel(volume, affine);
  const world = fromView(camera, 0, 0, -1);
  const dir = [0, 1, 2].map((r) => m[r * 4]! * world[0] + m[r * 4 + 1]! * world[1] + m[r * 4 + 2]! * world[2]) as Vec3;
  const length = 2 * camera.halfExtent;
  const colour = colourer(volume, look);
  const canvas: Canvas = { ...createBackdrop(size, size), depth: new Float32Array(size * size).fill(Infinity) };
  const rgb = new Float64Array(3);
  const data = volume.data;
  // Voxel centres sit at whole coordinates: a slice's voxels reach half a voxel either side.
  const within = (v: number, k: number): boolean => v >= -0.5 && v < n[k]! - 0.5;
  const nearest = (v: number, k: number): number => Math.min(n[k]! - 1, Math.max(0, Math.round(v)));
  const start = [0, 0, 0];
  const hitT = [0, 0, 0];
  const hitValue = [0, 0, 0];
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const vx = ((px + 0.5) / size - 0.5) * length;
      const vy = (0.5 - (py + 0.5) / size) * length;
      const off = fromView(camera, vx, vy, camera.halfExtent);
      const p = [camera.centre[0] + off[0], camera.centre[1] + off[1], camera.centre[2] + off[2]];
      for (let r = 0; r < 3; r++) start[r] = m[r * 4]! * p[0]! + m[r * 4 + 1]! * p[1]! + m[r * 4 + 2]! * p[2]! + m[r * 4 + 3]!;
      let hits = 0;
      for (let axis = 0; axis < 3; axis++) {
        if (Math.abs(dir[axis]!) < 1e-12) continue;
        const t = (middle[axis]! - start[axis]!) / dir[axis]!;
        if (t < 0 || t > length) continue;
        const [x, y, z] = [start[0]! + dir[0] * t, start[1]! + dir[1] * t, start[2]! + dir[2] * t];
        if ((axis !== 0 && !within(x, 0)) || (axis !== 1 && !within(y, 1)) || (axis !== 2 && !within(z, 2))) continue;
        const [ix, iy, iz] = [axis === 0 ? middle[0] : nearest(x, 0), axis === 1 ? middle[1] : nearest(y, 1), axis === 2 ? middle[2] : nearest(z, 2)];
        // Kept in order of distance: at most three, so an insertion is enough.
        let at = hits++;
        while (at > 0 && hitT[at - 1]! > t) {
          hitT[at] = hitT[at - 1]!;
          hitValue[at] = hitValue[at - 1]!;
          at--;
        }
        hitT[at] = t;
        hitValue[at] = data[(iz * ny + iy) * nx + ix]!;
      }
      // The nearest slice that shows something there; see-through voxels let the ray on to the next.
      for (let k = 0; k < hits; k++) {
        if (!colour(hitValue[k]!, rgb)) continue;
        canvas.rgb.set(rgb, (py * size + px) * 3);
        // The ray set out from the camera's near plane, half the extent in front of its centre.
        canvas.depth![py * size + px] = hitT[k]! - camera.halfExtent;
        break;
      }
    }
  }
  return canvas;
}

const BOX_RGB = hexRgb(VOLUME_BOX_COLOUR)! as Rgb;

/** One layer of a picture: its result, and how the room's scene shows it. */
export interface PictureLayer {
  result: StoredResult;
  kind?: LayerKind;
  display?: LayerDisplay;
  /** The room's entry (its active layer): the room's view applies to it. */
  active?: boolean;
  /** A mesh's colour as the page picks it (`#rrggbb`); absent: the page's default. */
  meshColour?: string;
}

/** What a layer is drawn with: its display, the room's view under it when active. */
interface LayerLookOf {
  colormap?: ScalarColormap;
  labels: boolean;
  window?: [number, number];
  gamma?: number;
  mode: 'slices' | 'volume' | 'surface' | 'points';
  opacity: number;
}

function lookOf(layer: PictureLayer, view: RoomView): LayerLookOf {
  const display = layer.display ?? {};
  const under: RoomView = layer.active ? view : {};
  const named = display.colormap ?? under.colormap;
  const volumeLabels = layer.result.type === 'volume' && (layer.result as { labels?: boolean }).labels === true;
  // The room's opacity fades the page's active mesh; a volume's is its ray marcher's density, not drawn here.
  const faded = layer.result.type === 'mesh' && typeof under.opacity === 'number' ? under.opacity : 1;
  return {
    ...(isScalarColormap(named) ? { colormap: named } : {}),
    labels: layer.kind === 'labels' || volumeLabels || named === 'glasbey',
    ...((display.window ?? under.window) ? { window: display.window ?? under.window } : {}),
    ...(display.gamma !== undefined ? { gamma: display.gamma } : {}),
    mode: display.mode ?? under.mode ?? DEFAULT_VOLUME_MODE,
    opacity: (display.opacity ?? 1) * faded,
  };
}

/** The linear part of an affine (for directions: normals). */
function linear(affine: readonly number[]): number[] {
  return [...affine.slice(0, 3), 0, ...affine.slice(4, 7), 0, ...affine.slice(8, 11), 0, 0, 0, 0, 1];
}

/** A mesh or a cloud with nothing in it: what its renderer draws as bare backdrop. */
function emptyLike(result: StoredResult): StoredResult {
  if (result.type === 'mesh') return { ...result, vertices: new Float32Array(0), indices: new Uint32Array(0), normals: undefined } as StoredResult;
  return { ...result, points: new Float32Array(0), colors: undefined, scalars: undefined } as StoredResult;
}

function drawVolume(layer: PictureLayer, look: LayerLookOf, camera: Camera): Canvas {
  const display = layer.display ?? {};
  const volume = stepOf(layer.result as unknown as VolumeResult, display.t);
  const values = {
    colormap: look.colormap ?? DEFAULT_COLORMAP,
    ...(look.window ? { window: look.window } : {}),
    ...(look.gamma !== undefined ? { gamma: look.gamma } : {}),
  };
  const render = look.mode === 'volume' ? renderVolumeInWorld : renderSlicesInWorld;
  const drawn = render(volume, camera, display.affine, look.labels ? { labels: true } : values);
  // The box's edges, one pixel wide.
  drawBoxEdges(drawn, volumeCorners(volume).map((corner) => onScreen(camera, corner, display.affine)), BOX_RGB, 1);
  return drawn;
}

function drawLayer(layer: PictureLayer, look: LayerLookOf, camera: Camera): Canvas | null {
  const result = layer.result as SpecimenResult;
  const affine = layer.display?.affine;
  if ('vertices' in result) {
    const normals = result.normals && affine ? placed(result.normals, linear(affine)) : affine ? undefined : result.normals;
    const mesh = { ...result, vertices: placed(result.vertices, affine), normals };
    const colour = hexRgb(layer.meshColour) ?? hexRgb(DEFAULT_MESH_COLOUR)!;
    return renderMesh(mesh, camera.size, { colour }, camera);
  }
  if ('points' in result) {
    return renderPoints({ ...result, points: placed(result.points, affine) }, camera.size, { colormap: look.colormap ?? DEFAULT_COLORMAP }, camera);
  }
  if ('shape' in result) return drawVolume(layer, look, camera);
  return null;
}

/** Draws `layers` (bottom first) on the camera's square as the room with `view` shows them. */
export function renderScene(layers: readonly PictureLayer[], camera: Camera, view: RoomView): Canvas {
  const canvas = createBackdrop(camera.size, camera.size);
  /** The nearest surface drawn so far at each pixel; what carries no depth (a box's edges, a cloud) neither hides nor is hidden. */
  const nearest = new Float32Array(camera.size * camera.size).fill(Infinity);
  const sameDepth = camera.halfExtent * 1e-3;
  for (const layer of layers) {
    if (layer.display?.visible === false) continue;
    const look = lookOf(layer, view);
    const drawn = drawLayer(layer, look, camera);
    if (!drawn) continue;
    // The same renderer's bare backdrop (a supersampled one is not the plain one to the bit).
    const supersampled = layer.result.type === 'mesh' || layer.result.type === 'point_cloud';
    const bare = supersampled ? drawLayer({ ...layer, result: emptyLike(layer.result) }, look, camera) : null;
    const backdrop = (bare ?? createBackdrop(camera.size, camera.size)).rgb;
    // Where the layer drew (its pixels differ from the bare backdrop), it covers what is below,
    // unless a layer drawn before lies in front of it there, as the page's depth test has it. A
    // surface at the same depth as one below (a segmentation's slice on its scan's) is drawn
    // over it, as the page pulls an upper layer's slices forward.
    for (let i = 0, pixel = 0; i < canvas.rgb.length; i += 3, pixel++) {
      if (drawn.rgb[i] === backdrop[i] && drawn.rgb[i + 1] === backdrop[i + 1] && drawn.rgb[i + 2] === backdrop[i + 2]) continue;
      const depth = drawn.depth?.[pixel] ?? Infinity;
      if (depth !== Infinity) {
        if (depth > nearest[pixel]! + sameDepth) continue;
        nearest[pixel] = Math.min(nearest[pixel]!, depth);
      }
      for (let k = 0; k < 3; k++) canvas.rgb[i + k] = canvas.rgb[i + k]! * (1 - look.opacity) + drawn.rgb[i + k]! * look.opacity;
    }
  }
  return canvas;
}
