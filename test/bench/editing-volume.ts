/**
 * @module editing-volume
 * The segmentation `npm run bench editing` edits, made in a second or so: a cube of `size`
 * voxels a side cut into cells about 23 voxels a side (22 a side at 512: 10,648 cells), each
 * cell a segment, with the cells' walls bent by sine waves so segments are not boxes, and one
 * cube of about a million voxels (101³ at 512) in a corner that is one segment of its own (id 1),
 * the segment the bench splits alone. Ids of cells start at 2. Written as a static `.npy`
 * specimen with a sidecar saying it is a segmentation. Beside the voxels it keeps, per segment,
 * its voxel count, its first and last voxel in C order (where the editors put split seeds) and
 * its middle one (where they put a brush).
 */
import { mkdirSync, openSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

/** The id of the one large segment. */
export const BIG_SEGMENT = 1;
/** Cells' side in voxels, about. */
const CELL = 512 / 22;
/** How far the waves bend a cell's walls, in voxels. */
const BEND = 4;

export interface Segmentation {
  size: number;
  data: Uint32Array;
  /** The largest id (ids 1 to `top`, each present). */
  top: number;
  /** Voxels of each id (index: id). */
  counts: Float64Array;
  /** Each id's first and last voxel's flat index. */
  first: Float64Array;
  last: Float64Array;
  /** Each id's middle voxel in C order (its count/2-th): where a brush is put in it. */
  middle: Float64Array;
}

/** A wave along a sum of two coordinates, as a table over every sum. */
function wave(size: number, period: number): Int8Array {
  const table = new Int8Array(2 * size);
  for (let s = 0; s < table.length; s++) table[s] = Math.round(BEND * Math.sin((2 * Math.PI * s) / period));
  return table;
}

/** The side of the large segment's cube: about a million voxels at 512, the same share of smaller volumes. */
export function bigSide(size: number): number {
  return Math.max(2, Math.round((101 * size) / 512));
}

export function makeSegmentation(size: number): Segmentation {
  const cells = Math.max(1, Math.round(size / CELL));
  const side = size / cells;
  const [wz, wy, wx] = [wave(size, 97), wave(size, 89), wave(size, 83)];
  // The cell of every coordinate a wave can bend to (offset by BEND).
  const cellAt = new Int32Array(size + 2 * BEND + 1);
  for (let v = -BEND; v <= size + BEND; v++) cellAt[v + BEND] = Math.min(cells - 1, Math.max(0, Math.floor(v / side)));
  const big = bigSide(size);
  const data = new Uint32Array(size * size * size);
  for (let z = 0, i = 0; z < size; z++)
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++, i++) {
        if (z < big && y < big && x < big) {
          data[i] = BIG_SEGMENT;
          continue;
        }
        const cz = cellAt[z + BEND + wz[y + x]!]!;
        const cy = cellAt[y + BEND + wy[z + x]!]!;
        const cx = cellAt[x + BEND + wx[z + y]!]!;
        data[i] = 2 + (cz * cells + cy) * cells + cx;
      }
  // Cells the large cube covered whole are absent: number the ids present 1, 2, 3, ... again.
  const topCell = 2 + cells * cells * cells;
  const seen = new Uint8Array(topCell);
  for (let i = 0; i < data.length; i++) seen[data[i]!] = 1;
  const renumber = new Uint32Array(topCell);
  let top = 0;
  for (let id = 1; id < topCell; id++) if (seen[id]) renumber[id] = ++top;
  const counts = new Float64Array(top + 1);
  const first = new Float64Array(top + 1).fill(-1);
  const last = new Float64Array(top + 1);
  for (let i = 0; i < data.length; i++) {
    const id = (data[i] = renumber[data[i]!]!);
    if (counts[id] === 0) first[id] = i;
    counts[id]! += 1;
    last[id] = i;
  }
  const middle = new Float64Array(top + 1);
  const passed = new Float64Array(top + 1);
  for (let i = 0; i < data.length; i++) {
    const id = data[i]!;
    if (passed[id] === Math.floor(counts[id]! / 2)) middle[id] = i;
    passed[id]! += 1;
  }
  return { size, data, top, counts, first, last, middle };
}

/** Writes the segmentation as specimen `id` (a uint32 `.npy` and its sidecar) under `specimensDir`. */
export function writeSpecimen(specimensDir: string, id: string, seg: Segmentation): void {
  const dir = path.join(specimensDir, id);
  mkdirSync(dir, { recursive: true });
  const s = seg.size;
  let header = `{'descr': '<u4', 'fortran_order': False, 'shape': (${s}, ${s}, ${s}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prelude = Buffer.alloc(10);
  prelude[0] = 0x93;
  prelude.write('NUMPY', 1, 'latin1');
  prelude[6] = 1;
  prelude.writeUInt16LE(header.length, 8);
  const fd = openSync(path.join(dir, `${id}.npy`), 'w');
  try {
    writeSync(fd, Buffer.concat([prelude, Buffer.from(header, 'latin1')]));
    // In pieces: one write of 512 MiB is past what a single write call takes.
    const bytes = new Uint8Array(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength);
    for (let at = 0; at < bytes.length; at += 1 << 26) writeSync(fd, bytes.subarray(at, Math.min(bytes.length, at + (1 << 26))));
  } finally {
    closeSync(fd);
  }
  writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ labels: true, spacing: [1, 1, 1] }));
  const meta = { id, display_name: `Generated segmentation ${s}³`, description: `${seg.top} segments`, type: 'volume', data_file: `${id}.npy` };
  writeFileSync(path.join(dir, 'specimen.json'), JSON.stringify(meta));
}
