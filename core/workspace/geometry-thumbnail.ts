/**
 * @module geometry-thumbnail
 * Small pictures of a mesh or a point cloud for published specimens' thumbnails: seen along
 * the axis the shape is thinnest on, scaled to fill the picture; a mesh's triangles are filled
 * and shaded by how squarely they face the viewer (nearer ones drawn over farther ones), a
 * cloud's points drawn as small dots. RGBA, on a transparent background.
 */
import type { RasterImage } from '../formats/png/encode-png.ts';

const SIZE = 128;
const MARGIN = 6;
/** The colour drawn, shaded by facing (RGB). */
const COLOUR = [79, 179, 255];

interface Projection {
  /** The axis looked along (0, 1 or 2). */
  depthAxis: number;
  /** Picture x, y and depth of point `i`. */
  project(positions: ArrayLike<number>, i: number): [number, number, number];
}

/** Looks along the axis of least extent, the other two axes filling SIZE minus the margins. */
function projectionOf(positions: ArrayLike<number>): Projection | null {
  const count = Math.floor(positions.length / 3);
  if (count === 0) return null;
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i++) {
    for (let a = 0; a < 3; a++) {
      const v = positions[i * 3 + a]!;
      if (v < min[a]!) min[a] = v;
      if (v > max[a]!) max[a] = v;
    }
  }
  const extent = [0, 1, 2].map((a) => max[a]! - min[a]!);
  if (!extent.every(Number.isFinite)) return null;
  const depth = extent.indexOf(Math.min(...extent));
  const [u, v] = [0, 1, 2].filter((a) => a !== depth) as [number, number];
  const scale = (SIZE - 2 * MARGIN) / Math.max(extent[u]!, extent[v]!, 1e-12);
  const offU = (SIZE - extent[u]! * scale) / 2;
  const offV = (SIZE - extent[v]! * scale) / 2;
  return {
    depthAxis: depth,
    project: (p, i) => [offU + (p[i * 3 + u]! - min[u]!) * scale, SIZE - (offV + (p[i * 3 + v]! - min[v]!) * scale), p[i * 3 + depth]!],
  };
}

function blank(): RasterImage & { data: Uint8Array } {
  return { width: SIZE, height: SIZE, channels: 4, data: new Uint8Array(SIZE * SIZE * 4) };
}

function put(image: { data: Uint8Array }, x: number, y: number, shade: number): void {
  if (x < 0 || y < 0 || x >= SIZE || y >= SIZE) return;
  const at = (y * SIZE + x) * 4;
  image.data.set([Math.round(COLOUR[0]! * shade), Math.round(COLOUR[1]! * shade), Math.round(COLOUR[2]! * shade), 255], at);
}

/** A mesh's filled, shaded silhouette; null when it has no finite vertices. */
export function meshThumbnail(vertices: ArrayLike<number>, indices: ArrayLike<number>): RasterImage | null {
  const view = projectionOf(vertices);
  if (!view) return null;
  const image = blank();
  const depth = new Float64Array(SIZE * SIZE).fill(-Infinity);
  const triangles = Math.min(Math.floor(indices.length / 3), 2_000_000);
  for (let t = 0; t < triangles; t++) {
    const a = view.project(vertices, indices[t * 3]!);
    const b = view.project(vertices, indices[t * 3 + 1]!);
    const c = view.project(vertices, indices[t * 3 + 2]!);
    const area = (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1]);
    if (area === 0 || !Number.isFinite(area)) continue;
    // How squarely the triangle faces the viewer: its projected area over its true area.
    const e1 = [0, 1, 2].map((k) => vertices[indices[t * 3 + 1]! * 3 + k]! - vertices[indices[t * 3]! * 3 + k]!);
    const e2 = [0, 1, 2].map((k) => vertices[indices[t * 3 + 2]! * 3 + k]! - vertices[indices[t * 3]! * 3 + k]!);
    const cross = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const trueArea = Math.hypot(cross[0]!, cross[1]!, cross[2]!);
    const shade = trueArea > 0 ? 0.35 + 0.65 * Math.min(1, Math.abs(cross[view.depthAxis]!) / trueArea) : 0.35;
    const [x0, x1] = [Math.max(0, Math.floor(Math.min(a[0], b[0], c[0]))), Math.min(SIZE - 1, Math.ceil(Math.max(a[0], b[0], c[0])))];
    const [y0, y1] = [Math.max(0, Math.floor(Math.min(a[1], b[1], c[1]))), Math.min(SIZE - 1, Math.ceil(Math.max(a[1], b[1], c[1])))];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const w0 = ((b[0] - px) * (c[1] - py) - (c[0] - px) * (b[1] - py)) / area;
        const w1 = ((c[0] - px) * (a[1] - py) - (a[0] - px) * (c[1] - py)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * a[2] + w1 * b[2] + w2 * c[2];
        if (z < depth[y * SIZE + x]!) continue;
        depth[y * SIZE + x] = z;
        put(image, x, y, shade);
      }
    }
  }
  return image;
}

/** A point cloud's points as dots; null when it has no finite points. */
export function pointsThumbnail(points: ArrayLike<number>): RasterImage | null {
  const view = projectionOf(points);
  if (!view) return null;
  const image = blank();
  const count = Math.floor(points.length / 3);
  const step = Math.max(1, Math.floor(count / 200_000));
  for (let i = 0; i < count; i += step) {
    const [x, y] = view.project(points, i);
    const px = Math.floor(x);
    const py = Math.floor(y);
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) put(image, px + dx, py + dy, 1);
  }
  return image;
}
