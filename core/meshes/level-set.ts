/**
 * @module level-set
 * A surface's level set as the host holds and keeps it: its plan, levels and fragments, and
 * the three files (the manifest, the Draco fragments, the GLB fragments) as views into one
 * shared buffer, the packed set. The packed set is what is kept where results are (a data
 * folder, a service's blob store): a small head (format, lengths), a JSON table (levels,
 * plan, transform, scales, triangles), the fragments as float64 rows, then the three files.
 * Unpacking checks every length and range, so bytes that are not a whole set of this format
 * read as none (the set is built again), never as a set that would send wrong bytes.
 */
import type { LodPlan } from './lod-plan.ts';

/** The format of a packed set; a set kept in another format is built again. */
export const LEVEL_SET_FORMAT = 2;

/** One fragment: its level and cell, size, and where its bytes are in each file. */
export interface FragmentEntry {
  level: number;
  cell: [number, number, number];
  triangles: number;
  /** Offset and length in the Draco file (`{segment}`). */
  draco: [number, number];
  /** Offset and length in the GLB fragments. */
  glb: [number, number];
  /** The fragment's box in physical units: min x, y, z then max x, y, z. */
  box: number[];
}

/** What a level set says of itself, beside its fragments and files. */
export interface LevelSetTable {
  levels: number;
  plan: LodPlan;
  /** 3 × 4 row-major, stored model coordinates into physical units. */
  transform: number[];
  /** Each level's scale (about its triangles' edge length, stored model units). */
  scales: number[];
  /** Each level's triangles. */
  triangles: number[];
}

/** A surface's level set. */
export interface SegmentLods extends LevelSetTable {
  fragments: FragmentEntry[];
  manifest: Uint8Array;
  draco: Uint8Array;
  glb: Uint8Array;
  /** The whole set in one shared buffer (the files above are views into it): what is kept. */
  packed: Uint8Array;
}

/**
 * A set's coarsest level, ready before its finer ones are encoded: the set's table, how many
 * fragments each level has, and the coarsest level's fragments (offsets into its own files).
 * What a viewer draws first of a segment (its sidecar and coarsest GLBs) is answered from it with
 * the bytes the finished set answers.
 */
export interface CoarsestLevel extends LevelSetTable {
  /** Fragments of each level. */
  counts: number[];
  /** The coarsest level's fragments, their offsets into `draco` and `glb`. */
  fragments: FragmentEntry[];
  draco: Uint8Array;
  glb: Uint8Array;
}

/** What a viewer's first documents and fragments are read from: a finished set, or its coarsest level alone. */
export type ShownLevels = SegmentLods | CoarsestLevel;

/** Magic, format, table bytes, fragments, then the three files' bytes: uint32 each. */
const HEAD_WORDS = 8;
const MAGIC = 0x5354_4c56; // "VLTS" little-endian
/** Numbers per fragment row: level, cell (3), triangles, Draco offset and length, GLB offset and length, box (6). */
const ROW = 15;

const align8 = (n: number) => Math.ceil(n / 8) * 8;

function sumLengths(parts: readonly Uint8Array[]): number {
  return parts.reduce((n, part) => n + part.byteLength, 0);
}

/** The set of `table` and `fragments` whose files are the concatenations of their parts, packed in one shared buffer. */
export function packLevelSet(table: LevelSetTable, fragments: FragmentEntry[], manifest: Uint8Array, draco: Uint8Array[], glb: Uint8Array[]): SegmentLods {
  const json = new TextEncoder().encode(JSON.stringify(table));
  const rowsAt = align8(HEAD_WORDS * 4 + json.byteLength);
  const filesAt = rowsAt + fragments.length * ROW * 8;
  const lengths = [manifest.byteLength, sumLengths(draco), sumLengths(glb)];
  const packed = new Uint8Array(new SharedArrayBuffer(filesAt + lengths[0]! + lengths[1]! + lengths[2]!));
  new Uint32Array(packed.buffer, 0, HEAD_WORDS).set([MAGIC, LEVEL_SET_FORMAT, json.byteLength, fragments.length, ...lengths, 0]);
  packed.set(json, HEAD_WORDS * 4);
  const rows = new Float64Array(packed.buffer, rowsAt, fragments.length * ROW);
  fragments.forEach((f, i) => rows.set([f.level, ...f.cell, f.triangles, ...f.draco, ...f.glb, ...f.box], i * ROW));
  let at = filesAt;
  for (const part of [manifest, ...draco, ...glb]) {
    packed.set(part, at);
    at += part.byteLength;
  }
  return viewsOf(table, fragments, packed, filesAt, lengths);
}

function viewsOf(table: LevelSetTable, fragments: FragmentEntry[], packed: Uint8Array, filesAt: number, lengths: number[]): SegmentLods {
  const [m, d, g] = lengths as [number, number, number];
  return {
    ...table,
    fragments,
    manifest: packed.subarray(filesAt, filesAt + m),
    draco: packed.subarray(filesAt + m, filesAt + m + d),
    glb: packed.subarray(filesAt + m + d, filesAt + m + d + g),
    packed,
  };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function tableOf(text: string): LevelSetTable | null {
  const t = JSON.parse(text) as Partial<LevelSetTable> | null;
  const numbers = (a: unknown, n: number) => Array.isArray(a) && a.length === n && a.every((v) => typeof v === 'number');
  if (!t || !isCount(t.levels) || t.levels < 1 || !t.plan || !numbers(t.plan.origin, 3) || typeof t.plan.chunk !== 'number') return null;
  if (!numbers(t.transform, 12) || !numbers(t.scales, t.levels) || !numbers(t.triangles, t.levels)) return null;
  return { levels: t.levels, plan: t.plan, transform: t.transform!, scales: t.scales!, triangles: t.triangles! };
}

/** The set packed in `packed` (starting 8-byte aligned in its buffer), or null when it is not a whole set of this format. */
export function unpackLevelSet(packed: Uint8Array): SegmentLods | null {
  try {
    const base = packed.byteOffset;
    if (base % 8 !== 0 || packed.byteLength < HEAD_WORDS * 4) return null;
    const [magic, format, jsonLength, count, ...lengths] = Array.from(new Uint32Array(packed.buffer, base, HEAD_WORDS));
    if (magic !== MAGIC || format !== LEVEL_SET_FORMAT) return null;
    const rowsAt = align8(HEAD_WORDS * 4 + jsonLength!);
    const filesAt = rowsAt + count! * ROW * 8;
    if (filesAt + lengths[0]! + lengths[1]! + lengths[2]! !== packed.byteLength) return null;
    const table = tableOf(new TextDecoder().decode(packed.subarray(HEAD_WORDS * 4, HEAD_WORDS * 4 + jsonLength!)));
    if (!table) return null;
    const rows = new Float64Array(packed.buffer, base + rowsAt, count! * ROW);
    const fragments: FragmentEntry[] = [];
    for (let i = 0; i < count!; i++) {
      const r = Array.from(rows.subarray(i * ROW, (i + 1) * ROW));
      const fragment: FragmentEntry = {
        level: r[0]!, cell: [r[1]!, r[2]!, r[3]!], triangles: r[4]!, draco: [r[5]!, r[6]!], glb: [r[7]!, r[8]!], box: r.slice(9),
      };
      if (!fits(fragment, table.levels, lengths[1]!, lengths[2]!)) return null;
      fragments.push(fragment);
    }
    return viewsOf(table, fragments, packed, filesAt, lengths);
  } catch {
    return null;
  }
}

/** Whether a fragment read back names a level of the set and byte ranges inside its files. */
function fits(f: FragmentEntry, levels: number, dracoBytes: number, glbBytes: number): boolean {
  const within = ([offset, length]: [number, number], size: number) => isCount(offset) && isCount(length) && offset + length <= size;
  return isCount(f.level) && f.level < levels && f.cell.every(isCount) && isCount(f.triangles) && within(f.draco, dracoBytes) && within(f.glb, glbBytes);
}
