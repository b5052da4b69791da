/**
 * @module neuroglancer-state
 * A room's scene as a Neuroglancer viewer state, so a stock Neuroglancer opens the room: each
 * image layer with a volume result is an `image` layer reading the host's OME-Zarr v0.5 store
 * of that result (`zarr3://<absolute URL>/api/results/{result_id}.ome.zarr/`: Zarr v3, sharded),
 * drawn through its window (the `normalized` control's range), colour map, gamma and opacity;
 * each labels layer a `segmentation` layer (reading its result's v0.5 store too) with its
 * segment colours (the result's own `label_colors`, each overridden by the layer's
 * `labels.colors`) and selection; each kind of the room's annotations an `annotation` layer
 * reading the host's precomputed annotations; mesh and point layers as neuroglancer-geometry.ts
 * makes them; meshes and marks in the room's frame (neuroglancer-frame.ts). A labels layer's
 * segments take the page's categorical colours (Neuroglancer would pick its own): each id up to
 * the result's largest, at most MAX_COLOURED_SEGMENTS of them. Layers not computed yet have nothing to read: they are not listed,
 * but for a remote image read in place, which reads the image's own store through the host. Each layer's
 * `description` and the state's `title` say what made it (its plugin, version, bundle, call).
 */
import type { AnnotationKind, RoomScene, SceneLayer } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { colormapTable, SCALAR_COLORMAPS as COLORMAPS, type ScalarColormap as ColormapName } from '../wire/colormaps.ts';
import { meshLayer, pointsLayer } from './neuroglancer-geometry.ts';
import { lodMeshLayer, meshSource, shownSegments } from './neuroglancer-meshes.ts';
import { DEFAULT_MESH_COLOUR } from '../wire/layer-defaults.ts';
import { frameDimensions, hasUnit, projectionScale, sourceInFrame, type FrameDimensions, type ScenePlace } from './neuroglancer-frame.ts';
import { labelColor } from '../wire/label-colors.ts';
import { provenanceSentence } from '../wire/provenance-sentence.ts';

/** Neuroglancer's annotation source types, by the kinds of marks each shows. */
const ANNOTATION_TYPES: Record<AnnotationKind, string> = {
  point: 'point',
  line: 'line',
  polyline: 'line',
  box: 'axis_aligned_bounding_box',
  ellipsoid: 'ellipsoid',
};

/** Maps the viewer does not draw yet, as a few control points (close to matplotlib's). */
const MORE_STOPS: Record<string, [number, number, number][]> = {
  inferno: [[0, 0, 4], [40, 11, 84], [101, 21, 110], [159, 42, 99], [212, 72, 66], [245, 125, 21], [250, 193, 39], [252, 255, 164]],
  plasma: [[13, 8, 135], [84, 2, 163], [139, 10, 165], [185, 50, 137], [219, 92, 104], [244, 136, 73], [254, 188, 43], [240, 249, 33]],
  bone: [[0, 0, 0], [84, 84, 116], [169, 200, 200], [255, 255, 255]],
  hot: [[10, 0, 0], [255, 0, 0], [255, 255, 0], [255, 255, 255]],
};

/** A colour map as control points: the viewer's own, sampled, or one of MORE_STOPS; grey for anything else. */
function colormapStops(name: string): [number, number, number][] {
  if ((COLORMAPS as string[]).includes(name)) {
    const table = colormapTable(name as ColormapName);
    return Array.from({ length: 9 }, (_, i) => {
      const at = Math.round((i / 8) * 255) * 3;
      return [table[at]!, table[at + 1]!, table[at + 2]!];
    });
  }
  return MORE_STOPS[name] ?? [[0, 0, 0], [255, 255, 255]];
}

const glslFloat = (value: number): string => (Number.isInteger(value) ? `${value}.0` : String(value));

/** The GLSL of an image layer: its colour map over the `normalized` window, raised to its gamma. */
export function imageShader(colormap: string | undefined, gamma: number | undefined): string {
  const stops = colormapStops(colormap ?? 'gray');
  const vec = ([r, g, b]: [number, number, number]) => `vec3(${[r, g, b].map((c) => glslFloat(Math.round((c / 255) * 1000) / 1000)).join(', ')})`;
  const shaped = gamma !== undefined && gamma !== 1 ? `pow(clamp(normalized(), 0.0, 1.0), ${glslFloat(gamma)})` : 'clamp(normalized(), 0.0, 1.0)';
  return [
    '#uicontrol invlerp normalized',
    `const vec3 STOPS[${stops.length}] = vec3[${stops.length}](${stops.map(vec).join(', ')});`,
    'void main() {',
    `  float t = ${shaped} * ${glslFloat(stops.length - 1)};`,
    `  int k = int(min(floor(t), ${glslFloat(stops.length - 2)}));`,
    '  emitRGB(mix(STOPS[k], STOPS[k + 1], t - float(k)));',
    '}',
  ].join('\n');
}

function imageLayer(layer: SceneLayer, source: string): Record<string, unknown> {
  const shader = imageShader(layer.colormap, layer.gamma);
  const state: Record<string, unknown> = { type: 'image', name: layer.id, source, opacity: layer.opacity ?? 1, visible: layer.visible ?? true, shader };
  if (layer.window) state.shaderControls = { normalized: { range: layer.window } };
  if (layer.blending === 'additive') state.blend = 'additive';
  return state;
}

/** Segment colours by label id, as `label_colors` and a layer's `labels.colors` write them. */
type SegmentColors = Record<string, string>;

/** The most segments of one labels layer the state colours (ids 1 to this); a larger id keeps Neuroglancer's colour. */
export const MAX_COLOURED_SEGMENTS = 1000;

/**
 * The colours each labels layer's segments are drawn in on the page, by layer id: the result's
 * own `label_colors`, else each id's categorical colour, for every id up to the result's largest
 * (at most MAX_COLOURED_SEGMENTS), read from the results themselves, since a scene names its
 * results and never carries their colour tables. A result no longer held gives none (its store
 * would not answer either).
 */
export async function resultSegmentColors(scene: RoomScene, find: (resultId: string) => Promise<StoredResult | null>): Promise<Map<string, SegmentColors>> {
  const colors = new Map<string, SegmentColors>();
  // A layer shown from its file as it is has no result id, and no colour table the host read.
  const labels = scene.layers.filter((layer) => layer.kind === 'labels' && layer.result?.type === 'volume' && layer.result.result_id !== undefined);
  await Promise.all(
    labels.map(async (layer) => {
      const result = await find(layer.result!.result_id!).catch(() => null);
      if (result?.type !== 'volume') return;
      const largest = Math.min(MAX_COLOURED_SEGMENTS, Math.floor(result.valueRange?.[1] ?? 0));
      const table: SegmentColors = {};
      for (let id = 1; id <= largest; id++) table[String(id)] = labelColor(id, result.label_colors);
      const all = { ...table, ...result.label_colors };
      if (Object.keys(all).length > 0) colors.set(layer.id, all);
    }),
  );
  return colors;
}

/** A labels layer: its volume and, beside it, its segments' surfaces in levels of detail (`meshes`), the segments it holds (`held`) shown. */
function labelsLayer(
  layer: SceneLayer,
  source: string,
  meshes: Record<string, unknown> | null,
  held: number[] | undefined,
  fromResult: SegmentColors | undefined,
): Record<string, unknown> {
  const opacity = layer.opacity ?? 1;
  const onlySelected = layer.labels?.show === 'selected';
  // The colours are overrides: an id the layer does not name keeps its result's colour.
  const colors = { ...fromResult, ...layer.labels?.colors };
  const state: Record<string, unknown> = {
    type: 'segmentation',
    name: layer.id,
    source: meshes ? [source, meshes] : source,
    visible: layer.visible ?? true,
    // Neuroglancer draws the surfaces of the segments it shows; in slices every segment is drawn whatever this says.
    segments: shownSegments(layer, held),
    selectedAlpha: opacity,
    notSelectedAlpha: onlySelected ? 0 : opacity,
    objectAlpha: opacity,
  };
  if (Object.keys(colors).length > 0) state.segmentColors = colors;
  return state;
}

/** What the state's layers are made of, as neuroglancerState is given it. */
interface StateSources {
  baseUrl: string;
  segmentColors: ReadonlyMap<string, SegmentColors>;
  points: ReadonlyMap<string, readonly number[][]>;
  frame: FrameDimensions;
  lodMeshes: ReadonlyMap<string, number[]>;
  inPlace: ReadonlyMap<string, string>;
}

/** A scene layer as a Neuroglancer layer; null for one with nothing to read yet. */
function layerState(layer: SceneLayer, sources: StateSources): Record<string, unknown> | null {
  const { baseUrl, points, frame, lodMeshes } = sources;
  const storePath = sources.inPlace.get(layer.id);
  // A remote image read in place: its own store through the host, every level, shown before (and whatever) the host read for the layer.
  if (storePath !== undefined) return volumeLayer(layer, `zarr://${baseUrl}${storePath}`, sources);
  // A file served only as it is has no result id, so no OME-Zarr store either.
  if (!layer.result?.result_id) return null;
  if (layer.kind === 'mesh' && lodMeshes.has(layer.id)) return lodMeshLayer(layer, baseUrl, frame, DEFAULT_MESH_COLOUR);
  if (layer.kind === 'mesh' && layer.result.type === 'mesh') return meshLayer(layer, baseUrl, frame);
  if (layer.kind === 'points') return points.has(layer.id) ? pointsLayer(layer, points.get(layer.id)!, frame) : null;
  if (layer.result.type !== 'volume' || (layer.kind !== 'image' && layer.kind !== 'labels')) return null;
  // The v0.5 store (Zarr v3): a shard's index and then only the inner chunks a view needs are read.
  return volumeLayer(layer, `zarr3://${baseUrl}/api/results/${layer.result.result_id}.ome.zarr/`, sources);
}

/** An image or labels layer reading the OME-Zarr store `source`; a labels layer's surfaces are its result's levels of detail, once it has them. */
function volumeLayer(layer: SceneLayer, source: string, { baseUrl, segmentColors, frame, lodMeshes }: StateSources): Record<string, unknown> {
  if (layer.kind === 'image') return imageLayer(layer, source);
  const resultId = layer.result?.result_id;
  const meshes = resultId && lodMeshes.has(layer.id) ? meshSource(resultId, baseUrl, frame) : null;
  return labelsLayer(layer, source, meshes, lodMeshes.get(layer.id), segmentColors.get(layer.id));
}

/** The annotation layers' shader: each mark drawn in the colour it was given. */
const MARK_SHADER = 'void main() {\n  setColor(prop_color());\n}\n';

/**
 * The Neuroglancer state of room `roomId`'s scene, every URL absolute under `baseUrl` (the
 * request's own scheme and host); `annotationKinds`: the kinds of marks the room holds;
 * `segmentColors`: the colours labels layers' results give their segments (resultSegmentColors);
 * `points`: the points of point layers (resultPoints); `unit`: the room's length unit (roomUnit);
 * `place`: the extent and middle of what the scene shows, in that unit (scenePlace); `lodMeshes`: the
 * labels and mesh layers whose results have levels of detail, with their segments (layersWithLevels);
 * `inPlace`: the layers that read a remote image's own store through the host, by layer id, that
 * store's path (in-place-layers.ts).
 */
export function neuroglancerState(
  roomId: string,
  scene: RoomScene,
  annotationKinds: ReadonlySet<AnnotationKind>,
  baseUrl: string,
  segmentColors: ReadonlyMap<string, SegmentColors> = new Map(),
  points: ReadonlyMap<string, readonly number[][]> = new Map(),
  unit: string | null = null,
  place: ScenePlace | null = null,
  lodMeshes: ReadonlyMap<string, number[]> = new Map(),
  inPlace: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  const frame = frameDimensions(unit);
  const sources: StateSources = { baseUrl, segmentColors, points, frame, lodMeshes, inPlace };
  const layers: Record<string, unknown>[] = [];
  const made: string[] = [];
  for (const layer of scene.layers) {
    const shown = layerState(layer, sources);
    if (!shown) continue;
    // What made the layer, beside its name: Neuroglancer keeps a layer's unknown keys and ignores them.
    const provenance = layer.result?.provenance;
    if (provenance) {
      shown.description = provenanceSentence(provenance);
      made.push(`${layer.id}: ${shown.description}`);
    }
    layers.push(shown);
  }
  const types = new Set([...annotationKinds].map((kind) => ANNOTATION_TYPES[kind]));
  for (const type of types) {
    // Each mark in its own colour (the collections' `color` property); the collections state no unit.
    const source = `precomputed://${baseUrl}/api/rooms/${encodeURIComponent(roomId)}/annotations/precomputed/${type}`;
    layers.push({ type: 'annotation', name: `annotations (${type})`, source: hasUnit(frame) ? sourceInFrame(source, frame) : source, shader: MARK_SHADER });
  }
  const active = layers.find((layer) => layer.name === scene.active);
  return {
    // The window's title, so a screenshot of the tab says what made the room's layers.
    title: made.length > 0 ? `vitrine room ${roomId} — ${made.join('; ')}` : `vitrine room ${roomId}`,
    layers,
    // Coordinates in the room's unit, the 3-D view framed on the scene and the cross-sections
    // through its middle, whichever source answers first.
    ...(place !== null ? { dimensions: frame, position: place.position, projectionScale: projectionScale(place.extent) } : {}),
    layout: layers.some((layer) => layer.type === 'image' || layer.type === 'segmentation') ? '4panel' : '3d',
    ...(active ? { selectedLayer: { layer: active.name, visible: true } } : {}),
  };
}
