/**
 * @module weld-vertices
 * Turns a triangle soup (three corners per triangle, as STL stores it) into an indexed mesh
 * whose triangles share vertices with equal positions, so that mesh tools (simplifiers,
 * smoothers) see one surface rather than loose triangles. Positions are compared bit for bit
 * through an open-addressing table of indices: no string keys, one pass, and each probe reads
 * the kept position it points to directly (no second lookup through the corner it came from).
 */
import type { TaggedResult } from '../sdk/result-types.ts';
import { sharedFloat32, sharedUint32 } from './shared-arrays.ts';

/**
 * A well-spread hash of three float bit patterns. Floats of round values end in many zero
 * bits, which multiplying never moves down: the shifts fold the high bits into the low ones
 * the table index keeps (without them a grid of integer positions lands in a few slots).
 */
function mix(x: number, y: number, z: number): number {
  let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y ^ (y >>> 16), 0x85ebca77) ^ Math.imul(z ^ (z >>> 16), 0xc2b2ae3d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Slot of kept vertex `v` (of positions `kept`) in `table`: the first empty one from its hash. */
function emptySlot(table: Int32Array, kept: Int32Array, v: number): number {
  const mask = table.length - 1;
  let slot = mix(kept[v * 3]!, kept[v * 3 + 1]!, kept[v * 3 + 2]!) & mask;
  while (table[slot] !== 0) slot = (slot + 1) & mask;
  return slot;
}

/** A table twice the size holding the first `unique` kept vertices. */
function grown(table: Int32Array, kept: Int32Array, unique: number): Int32Array {
  const larger = new Int32Array(table.length * 2);
  for (let v = 0; v < unique; v++) larger[emptySlot(larger, kept, v)] = v + 1;
  return larger;
}

export function weldVertices(corners: Float32Array): TaggedResult & { type: 'mesh' } {
  const count = corners.length / 3;
  // Positions compared as bit patterns: integer compares, and -0 stays apart from 0 as in the file.
  const bits = new Int32Array(corners.buffer, corners.byteOffset, corners.length);
  // Slot holds 1 + a kept vertex's index; 0 is empty (a fresh array needs no filling). Sized
  // for the distinct vertices, not the corners (a closed mesh has about one per six corners)
  // and doubled whenever it is half full: a small table stays in the processor's cache.
  let size = 1024;
  while (size < count / 2) size <<= 1;
  let table: Int32Array = new Int32Array(size);
  let mask = size - 1;
  // The kept positions, in order: compared against in place, then copied out whole.
  const kept = new Int32Array(count * 3);
  const indices = sharedUint32(count);
  let unique = 0;
  for (let i = 0; i < count; i++) {
    const x = bits[i * 3]!;
    const y = bits[i * 3 + 1]!;
    const z = bits[i * 3 + 2]!;
    let slot = mix(x, y, z) & mask;
    for (;;) {
      const at = table[slot]! - 1;
      if (at === -1) {
        table[slot] = unique + 1;
        const j = unique * 3;
        kept[j] = x;
        kept[j + 1] = y;
        kept[j + 2] = z;
        indices[i] = unique++;
        if (unique * 2 > table.length) {
          table = grown(table, kept, unique);
          mask = table.length - 1;
        }
        break;
      }
      const j = at * 3;
      if (kept[j] === x && kept[j + 1] === y && kept[j + 2] === z) {
        indices[i] = at;
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  const vertices = sharedFloat32(unique * 3);
  new Int32Array(vertices.buffer).set(kept.subarray(0, unique * 3));
  return { type: 'mesh', vertices, indices };
}
