/**
 * @module render-mesh
 * A z-buffered triangle rasteriser with per-pixel (Phong-interpolated) normals, shaded by a
 * key light, a cool fill light, a rim light and a Blinn-Phong highlight. A mesh with colours
 * per vertex (a segmentation's surfaces, each painted in its label's colour) is shaded in them,
 * interpolated across each triangle, as the page draws it; else in the one colour asked.
 */
import type { MeshResult } from 'vitrine';
import { project, renderCamera, toView, type Camera } from './camera.ts';
import { createBackdrop, downsample, downsampleDepth, type Canvas } from './canvas.ts';
import { computeFlatNormals } from './flat-normals.ts';

/** Surface colour (0..1 RGB) and optional view angles. */
export interface MeshLook {
  colour: [number, number, number];
  yaw?: number;
  pitch?: number;
}

const SUPERSAMPLE = 3;

/**
 * Renders `mesh` onto the backdrop and returns a `size` × `size` canvas: framed to fit, or as
 * `frame` (a camera of that size shared with other layers) sees it.
 */
export function renderMesh(mesh: MeshResult, size: number, look: MeshLook, frame?: Camera): Canvas {
  const { factor, full, camera } = renderCamera(mesh.vertices, size, SUPERSAMPLE, look, frame);
  const canvas = createBackdrop(full, full);
  const normals = mesh.normals ?? computeFlatNormals(mesh.vertices, mesh.indices);
  const vertexCount = mesh.vertices.length / 3;
  const screen = new Float64Array(vertexCount * 3);
  const viewNormals = new Float32Array(vertexCount * 3);
  const p = new Float64Array(3);
  for (let v = 0; v < vertexCount; v++) {
    project(camera, mesh.vertices[v * 3]!, mesh.vertices[v * 3 + 1]!, mesh.vertices[v * 3 + 2]!, p);
    screen.set(p, v * 3);
    viewNormals.set(toView(camera, normals[v * 3]!, normals[v * 3 + 1]!, normals[v * 3 + 2]!), v * 3);
  }
  const depth = new Float32Array(full * full).fill(Infinity);
  const gNormal = new Float32Array(full * full * 3);
  const colours = vertexColours(mesh);
  const gColour = colours ? new Float32Array(full * full * 3) : null;
  const { indices } = mesh;
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]!, b = indices[t + 1]!, c = indices[t + 2]!;
    const ax = screen[a * 3]!, ay = screen[a * 3 + 1]!, az = screen[a * 3 + 2]!;
    const bx = screen[b * 3]!, by = screen[b * 3 + 1]!, bz = screen[b * 3 + 2]!;
    const cx = screen[c * 3]!, cy = screen[c * 3 + 1]!, cz = screen[c * 3 + 2]!;
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (area === 0) continue;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(full - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(full - 1, Math.ceil(Math.max(ay, by, cy)));
    for (let y = y0; y <= y1; y++) {
      const py = y + 0.5;
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const w0 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / area;
        const w1 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * az + w1 * bz + w2 * cz;
        const pixel = y * full + x;
        if (z >= depth[pixel]!) continue;
        depth[pixel] = z;
        for (let k = 0; k < 3; k++) {
          gNormal[pixel * 3 + k] =
            w0 * viewNormals[a * 3 + k]! + w1 * viewNormals[b * 3 + k]! + w2 * viewNormals[c * 3 + k]!;
        }
        if (gColour) for (let k = 0; k < 3; k++) gColour[pixel * 3 + k] = w0 * colours![a * 3 + k]! + w1 * colours![b * 3 + k]! + w2 * colours![c * 3 + k]!;
      }
    }
  }
  shade(canvas, depth, gNormal, gColour ?? look.colour);
  // In a room's picture (a shared camera) the depth goes with it, for the layers drawn after.
  return frame ? { ...downsample(canvas, factor), depth: downsampleDepth(depth, full, factor) } : downsample(canvas, factor);
}

const KEY = normalise([-0.45, 0.7, 0.55]);
const FILL = normalise([0.6, -0.1, 0.4]);
const HALF = normalise([KEY[0], KEY[1], KEY[2] + 1]);

/** The mesh's colours per vertex as 0..1 RGB (bytes scaled), or null when it has none for every vertex. */
function vertexColours(mesh: MeshResult): Float32Array | null {
  const given = mesh.colors;
  if (!given || given.length !== mesh.vertices.length) return null;
  return given instanceof Uint8Array ? Float32Array.from(given, (c) => c / 255) : Float32Array.from(given);
}

/** Shades every covered pixel in `colour`: one for all, or one per pixel (three values each). */
function shade(canvas: Canvas, depth: Float32Array, gNormal: Float32Array, colour: readonly [number, number, number] | Float32Array): void {
  const perPixel = colour instanceof Float32Array;
  for (let pixel = 0; pixel < depth.length; pixel++) {
    if (depth[pixel] === Infinity) continue;
    const at = perPixel ? pixel * 3 : 0;
    const r = colour[at]!, g = colour[at + 1]!, b = colour[at + 2]!;
    let nx = gNormal[pixel * 3]!, ny = gNormal[pixel * 3 + 1]!, nz = gNormal[pixel * 3 + 2]!;
    const length = Math.hypot(nx, ny, nz) || 1;
    nx /= length; ny /= length; nz /= length;
    // Two-sided lighting: a back face seen through an opening is lit like a front face.
    if (nz < 0) { nx = -nx; ny = -ny; nz = -nz; }
    const key = Math.max(0, nx * KEY[0] + ny * KEY[1] + nz * KEY[2]);
    const fill = Math.max(0, nx * FILL[0] + ny * FILL[1] + nz * FILL[2]);
    const rim = (1 - nz) ** 3;
    const spec = Math.max(0, nx * HALF[0] + ny * HALF[1] + nz * HALF[2]) ** 48;
    const i = pixel * 3;
    canvas.rgb[i] = r * (0.12 + 0.85 * key + 0.18 * fill) + 0.35 * spec + 0.12 * rim;
    canvas.rgb[i + 1] = g * (0.12 + 0.85 * key + 0.22 * fill) + 0.35 * spec + 0.16 * rim;
    canvas.rgb[i + 2] = b * (0.14 + 0.85 * key + 0.3 * fill) + 0.35 * spec + 0.24 * rim;
  }
}

function normalise(v: [number, number, number]): [number, number, number] {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
}
