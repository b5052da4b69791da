/**
 * @module neuroglancer-frame
 * The room's physical frame in a Neuroglancer state. A volume's OME-Zarr store names its axes'
 * unit (`micrometer`), so Neuroglancer places it in metres; an OBJ mesh it reads in nanometres
 * and precomputed annotations without a unit, whatever the numbers were. Both are written in
 * the room's unit instead (a source's `transform` naming its dimensions), so a segment's
 * surface and the marks lie on the scan they were made from rather than a thousandth of its
 * size. The room's unit is its active layer's result's, else its first volume's that names one.
 * The state names its dimensions in that unit, frames the 3-D view on the scene's extent and
 * puts its position at the scene's centre: left to itself, Neuroglancer sizes that view and
 * places that position from whichever source answers first, and a mesh (no bounds: an OBJ, or
 * a labels layer's multi-resolution surfaces) or a lone mark (a point) answering first leaves
 * the view a few units across and the cross-sections at the origin, away from every volume.
 */
import type { RoomScene } from '../wire/scene-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { omeSpaceUnit } from '../zarr/ome-unit.ts';
import { voxelGrid, worldBounds } from '../thumbnails/world-frame.ts';
import type { SpecimenResult, VolumeResult } from '../sdk/result-types.ts';

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

/** Where a state places its views: the largest side of the scene and the point its cross-sections cross. */
export interface ScenePlace {
  extent: number;
  position: number[];
}

/**
 * The place of everything the scene's computed layers show (volumes, meshes, points) in the
 * room's frame, as Neuroglancer places them (without their affines): the largest side of the box
 * around them, and its centre moved to the nearest voxel centre of the scene's first volume (a
 * plane there crosses that volume's voxels rather than running along their faces); null when
 * nothing has a place or it is flat.
 */
export async function scenePlace(scene: RoomScene, find: (resultId: string) => Promise<StoredResult | null>): Promise<ScenePlace | null> {
  const results = await Promise.all(scene.layers.map((layer) => (layer.result?.result_id ? find(layer.result.result_id).catch(() => null) : null)));
  const boxes = results.flatMap((result) => (result ? [worldBounds(result as SpecimenResult, undefined)] : [])).filter((box) => box !== null);
  if (boxes.length === 0) return null;
  const min = [0, 1, 2].map((k) => Math.min(...boxes.map((box) => box.min[k]!)));
  const max = [0, 1, 2].map((k) => Math.max(...boxes.map((box) => box.max[k]!)));
  const extent = Math.max(...[0, 1, 2].map((k) => max[k]! - min[k]!));
  if (!(extent > 0 && Number.isFinite(extent))) return null;
  const volume = results.find((result) => result?.type === 'volume');
  const grid = volume ? voxelGrid(volume as VolumeResult) : null;
  const position = [0, 1, 2].map((k) => {
    const centre = (min[k]! + max[k]!) / 2;
    if (!grid) return centre;
    // The grid is C order (z, y, x); the position x, y, z.
    const [origin, spacing] = [grid.origin[2 - k]!, grid.spacing[2 - k]!];
    return origin + Math.round((centre - origin) / spacing) * spacing;
  });
  return { extent, position };
}

/** The 3-D view's height, as Neuroglancer would size it from bounds: the extent rounded up to a power of two. */
export function projectionScale(extent: number): number {
  return 2 ** Math.ceil(Math.log2(extent));
}
