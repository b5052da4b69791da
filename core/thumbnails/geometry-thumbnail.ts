/**
 * @module geometry-thumbnail
 * The thumbnail of a mesh or a point cloud that no one posed (a published file): drawn by the
 * same renderers as `vitrine thumbnails`, seen nearly along the axis it is thinnest on (so a
 * flat scan or a relief faces the viewer), turned a little so its depth shows. A mesh is drawn
 * in one blue, which the viewer then takes as its colour.
 */
import type { MeshResult, PointCloudResult } from 'vitrine';
import type { RasterImage } from '../formats/png/encode-png.ts';
import { boundsOf } from '../geometry/cluster-mesh.ts';
import { toBytes } from './canvas.ts';
import { renderMesh } from './render-mesh.ts';
import { renderPoints } from './render-points.ts';

/** The side of the picture, as `vitrine thumbnails` draws. */
export const THUMBNAIL_SIZE = 256;
/** The colour a posed-by-no-one mesh is drawn in (0..1 RGB). */
const MESH_COLOUR: [number, number, number] = [0.31, 0.7, 1];
/** How far the view turns off the thinnest axis (radians): around it, and towards the viewer. */
const TURN = 0.35;
const TILT = 0.3;

/** View angles looking nearly along the axis of least extent of `positions` (flat x,y,z). */
export function thinnestAxisAngles(positions: Float32Array): { yaw: number; pitch: number } {
  const { min, max } = boundsOf(positions);
  const extent = [0, 1, 2].map((a) => max[a]! - min[a]!);
  const axis = extent.indexOf(Math.min(...extent));
  // Yaw turns about y, then pitch about x (camera.ts): a quarter turn of yaw looks along x,
  // a quarter turn of pitch looks down y, none looks along z.
  if (axis === 0) return { yaw: Math.PI / 2 + TURN, pitch: TILT };
  if (axis === 1) return { yaw: TURN, pitch: Math.PI / 2 - TILT };
  return { yaw: TURN, pitch: TILT };
}

/** The thumbnail of `result` as RGB pixels; null when it has nothing to draw. */
export function geometryThumbnail(result: ({ type: 'mesh' } & MeshResult) | ({ type: 'point_cloud' } & PointCloudResult)): RasterImage | null {
  const positions = result.type === 'mesh' ? result.vertices : result.points;
  if (positions.length < 3) return null;
  const angles = thinnestAxisAngles(positions);
  const canvas =
    result.type === 'mesh' ? renderMesh(result, THUMBNAIL_SIZE, { colour: MESH_COLOUR, ...angles }) : renderPoints(result, THUMBNAIL_SIZE, angles);
  return { width: canvas.width, height: canvas.height, channels: 3, data: toBytes(canvas) };
}
