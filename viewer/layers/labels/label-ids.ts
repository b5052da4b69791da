/**
 * @module label-ids
 * A segmentation's samples as indices into a colour table. Ids are never interpolated or
 * scaled: a uint8 or uint16 volume is its own index (its ids address a table of 256 or 65,536
 * colours directly, and go to the GPU as they are, in an integer texture read texel by texel);
 * any other dtype (uint32, signed, or floats holding whole numbers) is mapped to the indices
 * of its distinct ids, in order of first appearance. Index 0 is always id 0, the background.
 */
import type { NumericArray } from '../../../core/wire/decoded-types.ts';

export interface LabelIds {
  /** Per voxel, the index of its id. */
  index: Uint8Array | Uint16Array | Uint32Array;
  /** Entries of the colour table (every index is below it). */
  size: number;
  /** The id of an index. */
  idOf(index: number): number;
  /** The index of an id, or -1 when the volume does not hold it. */
  indexOf(id: number): number;
  /** The non-zero ids the volume holds, ascending. */
  present: number[];
}

/** The ids of `data`, found in one pass. */
export function labelIdsOf(data: NumericArray): LabelIds {
  if (data instanceof Uint8Array || data instanceof Uint16Array) {
    const size = data instanceof Uint8Array ? 256 : 65536;
    const seen = new Uint8Array(size);
    for (let i = 0; i < data.length; i++) seen[data[i]!] = 1;
    const present: number[] = [];
    for (let id = 1; id < size; id++) if (seen[id]) present.push(id);
    return {
      index: data,
      size,
      idOf: (index) => index,
      indexOf: (id) => (Number.isInteger(id) && id >= 0 && id < size && seen[id] ? id : -1),
      present,
    };
  }
  const ids: number[] = [0];
  const indices = new Map<number, number>([[0, 0]]);
  const index = new Uint32Array(data.length);
  // Neighbouring voxels mostly share their id: the last one is checked before the map.
  let lastId = 0;
  let lastIndex = 0;
  for (let i = 0; i < data.length; i++) {
    const raw = data[i]!;
    const id = Number.isFinite(raw) ? Math.round(raw) : 0;
    if (id !== lastId) {
      lastId = id;
      let at = indices.get(id);
      if (at === undefined) {
        at = ids.length;
        ids.push(id);
        indices.set(id, at);
      }
      lastIndex = at;
    }
    index[i] = lastIndex;
  }
  const compact = ids.length <= 65536 ? Uint16Array.from(index) : index;
  return {
    index: compact,
    size: ids.length,
    idOf: (i) => ids[i] ?? 0,
    indexOf: (id) => indices.get(id) ?? -1,
    present: ids.filter((id) => id !== 0).sort((a, b) => a - b),
  };
}
