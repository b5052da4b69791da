/**
 * @module neuroglancer-geometry
 * The mesh and point layers of a room's Neuroglancer state. A mesh layer is a single-mesh
 * layer reading the layer's own data URL as legacy ASCII VTK (`<absolute URL>?format=vtk|vtk:`:
 * points and triangles, what Neuroglancer's VTK reader takes; a segment's surface included),
 * in the room's frame (neuroglancer-frame.ts) and in the colour the page
 * gives it (a segment's surface its label's, else the page's mesh colour) at the layer's
 * opacity; a point layer is an annotation layer of points written into the state
 * (Neuroglancer's `local://annotations`), read from the layer's result, at most
 * MAX_STATE_POINTS of them, picked evenly, since the page that opens a state reads it whole.
 */
import type { RoomScene, SceneLayer } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { labelRgb } from '../wire/label-colors.ts';
import { DEFAULT_MESH_COLOUR, hexRgb } from '../wire/layer-defaults.ts';
import { hasUnit, sourceInFrame, type FrameDimensions } from './neuroglancer-frame.ts';

/** The most points of one layer written into a state. */
export const MAX_STATE_POINTS = 5000;

const glslChannel = (c: number): string => (Math.round(c * 1000) / 1000).toFixed(3);

/** The single-mesh shader: every face in `colour` (0..1 RGB) at `opacity`, lit by Neuroglancer. */
export function meshShader(colour: readonly number[], opacity: number): string {
  const rgb = colour.map(glslChannel).join(', ');
  const emit = opacity < 1 ? `emitRGBA(vec4(${rgb}, ${glslChannel(opacity)}));` : `emitRGB(vec3(${rgb}));`;
  return `void main() {\n  ${emit}\n}\n`;
}

/** The colour the page gives mesh layer `layer` (0..1 RGB): a segment's surface its label's, else the default. */
function meshColour(layer: SceneLayer): number[] {
  const segment = layer.source.segment ?? layer.source.params?.segment;
  if (typeof segment === 'number' && Number.isInteger(segment)) return labelRgb(segment).map((c) => c / 255);
  return hexRgb(DEFAULT_MESH_COLOUR)!;
}

/** The single-mesh layer of mesh layer `layer` (computed: it has a result), its URLs under `baseUrl`, in the room's `frame`. */
export function meshLayer(layer: SceneLayer, baseUrl: string, frame: FrameDimensions): Record<string, unknown> {
  const url = new URL(layer.result!.data_url, `${baseUrl}/`);
  // VTK, not OBJ: Neuroglancer 2.41.2's OBJ reader fails on every file in its worker (a
  // ReferenceError as it trims its arrays), while its VTK reader reads the same mesh.
  url.searchParams.set('format', 'vtk');
  return {
    type: 'mesh',
    name: layer.id,
    // Neuroglancer reads a mesh file's numbers as nanometres: they are the room's units. The URL
    // comes first and the format after a `|`: that form reads the URL with its query, where the
    // older `vtk://<URL>` takes the query for the reader's own settings and refuses it.
    source: sourceInFrame(`${url.href}|vtk:`, frame),
    visible: layer.visible ?? true,
    shader: meshShader(meshColour(layer), layer.opacity ?? 1),
  };
}

/** The annotation layer of points of point layer `layer`, with `points` (x, y, z each, in the room's `frame`). */
export function pointsLayer(layer: SceneLayer, points: readonly number[][], frame: FrameDimensions): Record<string, unknown> {
  return {
    type: 'annotation',
    name: layer.id,
    source: hasUnit(frame) ? sourceInFrame('local://annotations', frame) : 'local://annotations',
    visible: layer.visible ?? true,
    annotations: points.map((point, i) => ({ type: 'point', id: String(i), point })),
  };
}

/** Every `step`-th point of a flat x, y, z list, at most MAX_STATE_POINTS of them. */
function picked(flat: Float32Array): number[][] {
  const count = Math.floor(flat.length / 3);
  const step = Math.max(1, Math.ceil(count / MAX_STATE_POINTS));
  const out: number[][] = [];
  for (let i = 0; i < count; i += step) out.push([flat[i * 3]!, flat[i * 3 + 1]!, flat[i * 3 + 2]!]);
  return out;
}

/**
 * The points each computed point layer shows, by layer id, read from the results (a scene never
 * carries arrays). A result no longer held gives none, and its layer is left out.
 */
export async function resultPoints(scene: RoomScene, find: (resultId: string) => Promise<StoredResult | null>): Promise<Map<string, number[][]>> {
  const points = new Map<string, number[][]>();
  const layers = scene.layers.filter((layer) => layer.kind === 'points' && layer.result?.result_id !== undefined);
  await Promise.all(
    layers.map(async (layer) => {
      const result = await find(layer.result!.result_id!).catch(() => null);
      if (result?.type === 'point_cloud') points.set(layer.id, picked(result.points));
      else if (result?.type === 'mesh') points.set(layer.id, picked(result.vertices));
    }),
  );
  return points;
}
