/**
 * @module obj-decoded-size
 * An OBJ file's vertices and triangles, counted before it is parsed: one pass over the lines
 * that allocates nothing, counting `v` lines and the corners of each `f` line.
 */
import type { DecodedSize } from '../decoded-size.ts';
import { isBlank, meshSize } from '../mesh-decoded-size.ts';

export function objDecodedSize(bytes: Buffer): DecodedSize {
  let vertices = 0;
  let triangles = 0;
  let at = 0;
  while (at < bytes.length) {
    while (bytes[at] === 0x20 || bytes[at] === 0x09) at++;
    const kind = bytes[at];
    if ((kind === 0x76 || kind === 0x66) && (bytes[at + 1] === 0x20 || bytes[at + 1] === 0x09)) {
      if (kind === 0x76) vertices++;
      else {
        let corners = 0;
        for (at += 1; at < bytes.length && bytes[at] !== 0x0a; at++) if (isBlank(bytes[at]) && !isBlank(bytes[at + 1]) && at + 1 < bytes.length) corners++;
        triangles += Math.max(0, corners - 2);
      }
    }
    const end = bytes.indexOf(0x0a, at);
    at = end < 0 ? bytes.length : end + 1;
  }
  return meshSize(vertices, triangles);
}
