/**
 * @module neuroglancer-frame
 * The room's physical frame in a Neuroglancer state. A volume's OME-Zarr store names its axes'
 * unit (`micrometer`), so Neuroglancer places it in metres; an OBJ mesh it reads in nanometres
 * and precomputed annotations without a unit, whatever the numbers were. Both are written in
 * the room's unit instead (a source's `transform` naming its dimensions), so a segment's
 * surface and the marks lie on the scan they were made from rather than a thousandth of its
 * size. The room's unit is its active layer's result's, else its first volume's that names one.
 * The state names its dimensions in that unit and frames the 3-D view on the scene's extent:
 * left to itself, Neuroglancer sizes that view from whichever source answers first, and a mesh
 * (no bounds) or a lone mark (a point) answering first leaves it at a few units across.
 */
import type { RoomScene } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { omeSpaceUnit } from '../zarr/ome-unit.ts';
import { worldBounds } from '../thumbnails/world-frame.ts';
import type { SpecimenResult } from '../sdk/result-types.ts';

/** Metres in one of each NGFF length unit Neuroglancer's metre scales can say. */
const METRES: Record<string, number> = {
  angstrom: 1e-10, picometer: 1e-12, nanometer: 1e-9, micrometer: 1e-6, millimeter: 1e-3, centimeter: 1e-2,
  decimeter: 0.1, meter: 1, kilometer: 1e3, inch: 0.0254, foot: 0.3048, yard: 0.9144, mile: 1609.344,
};

/** Neuroglancer's dimensions x, y, z: a scale and a unit each (`m`, or '' for none). */
export type FrameDimensions = Record<'x' | 'y' | 'z', [number, string]>;

/** The dimensions of a frame in `unit` (any spelling ome-unit.ts knows); unitless when it names none Neuroglancer can say. */
export function frameDimensions(unit: string | null | undefined): FrameDimensions {
  const metres = METRES[omeSpaceUnit(unit ?? undefined) ?? ''];
  const axis: [number, string] = metres === undefined ? [1, ''] : [metres, 'm'];
  return { x: [...axis], y: [...axis], z: [...axis] };
}

/** Whether `dimensions` say a unit (a unitless frame is what annotations already state). */
export function hasUnit(dimensions: FrameDimensions): boolean {
  return dimensions.x[1] !== '';
}

/** A data source whose x, y, z numbers are read as `dimensions`, whatever its own say. */
export function sourceInFrame(url: string, dimensions: FrameDimensions): Record<string, unknown> {
  return { url, transform: { inputDimensions: dimensions, outputDimensions: dimensions } };
}

/** The unit of room `scene`'s frame (null when no volume of it names one), its results read by `find`. */
export async function roomUnit(scene: RoomScene, find: (resultId: string) => Promise<StoredResult | null>): Promise<string | null> {
  const volumes = scene.layers.filter((layer) => layer.result?.type === 'volume' && layer.result.result_id !== undefined);
  const ordered = [...volumes.filter((layer) => layer.id === scene.active), ...volumes.filter((layer) => layer.id !== scene.active)];
  for (const layer of ordered) {
    const result = await find(layer.result!.result_id!).catch(() => null);
    const unit = result?.type === 'volume' ? result.unit : undefined;
    if (typeof unit === 'string' && unit !== '') return unit;
  }
  return null;
}

/**
 * The largest side of the box around every computed layer's result (volumes, meshes, points) in
 * the room's frame, as Neuroglancer places them (without their affines); null when none has a place.
 */
export async function sceneExtent(scene: RoomScene, find: (resultId: string) => Promise<StoredResult | null>): Promise<number | null> {
  const results = await Promise.all(scene.layers.map((layer) => (layer.result?.result_id ? find(layer.result.result_id).catch(() => null) : null)));
  const boxes = results.flatMap((result) => (result ? [worldBounds(result as SpecimenResult, undefined)] : [])).filter((box) => box !== null);
  if (boxes.length === 0) return null;
  const side = (k: number): number => Math.max(...boxes.map((box) => box.max[k]!)) - Math.min(...boxes.map((box) => box.min[k]!));
  const largest = Math.max(side(0), side(1), side(2));
  return largest > 0 && Number.isFinite(largest) ? largest : null;
}

/** The 3-D view's height, as Neuroglancer would size it from bounds: the extent rounded up to a power of two. */
export function projectionScale(extent: number): number {
  return 2 ** Math.ceil(Math.log2(extent));
}
