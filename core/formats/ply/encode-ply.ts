/**
 * @module encode-ply
 * A point cloud result as binary little-endian PLY: one `vertex` element with float x, y, z,
 * uchar red, green, blue when the cloud has colours (float colours 0..1 scaled to bytes) and
 * a float `scalar` when it has scalars. MeshLab, CloudCompare, Open3D and three's PLYLoader
 * read it.
 */
import type { PointCloudResult } from '../../sdk/result-types.ts';

/** The properties of a vertex's colour, as bytes. */
export const PLY_RGB = ['property uchar red', 'property uchar green', 'property uchar blue'];

/**
 * A binary little-endian PLY header: a `vertex` element of `count` with float x, y, z and then
 * the properties `more`, then the lines of the elements after it (`rest`).
 */
export function plyHeader(count: number, more: string[], rest: string[] = []): string {
  const lines = [
    'ply',
    'format binary_little_endian 1.0',
    'comment vitrine',
    `element vertex ${count}`,
    'property float x',
    'property float y',
    'property float z',
    ...more,
    ...rest,
    'end_header',
  ];
  return `${lines.join('\n')}\n`;
}

/** A colour component as a byte: bytes as they are, floats 0..1 scaled and clamped. */
export function colorByte(colors: Uint8Array | Float32Array, i: number): number {
  const c = colors[i]!;
  return colors instanceof Float32Array ? Math.max(0, Math.min(255, Math.round(c * 255))) : c;
}

/** The PLY bytes of `cloud`. */
export function encodePly(cloud: PointCloudResult): Uint8Array {
  const count = Math.floor(cloud.points.length / 3);
  const { colors, scalars } = cloud;
  const header = new TextEncoder().encode(plyHeader(count, [...(colors ? PLY_RGB : []), ...(scalars ? ['property float scalar'] : [])]));
  const stride = 12 + (colors ? 3 : 0) + (scalars ? 4 : 0);
  const out = new Uint8Array(header.length + count * stride);
  out.set(header);
  const view = new DataView(out.buffer);
  let at = header.length;
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++, at += 4) view.setFloat32(at, cloud.points[i * 3 + k]!, true);
    if (colors) for (let k = 0; k < 3; k++) out[at++] = colorByte(colors, i * 3 + k);
    if (scalars) {
      view.setFloat32(at, scalars[i]!, true);
      at += 4;
    }
  }
  return out;
}
