/**
 * @module ply-header
 * The header of a PLY file: its format and its elements with their properties, up to
 * `end_header`. Only what the parser needs is kept; unknown elements are read past.
 */
import { fail } from '../format-error.ts';

export type PlyFormat = 'ascii' | 'binary_little_endian' | 'binary_big_endian';

export interface PlyProperty {
  name: string;
  /** Scalar type, or the type of a list's items. */
  type: string;
  /** For a list property: the type of its count. */
  countType?: string;
}

export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

export interface PlyHeader {
  format: PlyFormat;
  elements: PlyElement[];
  /** Byte offset of the body. */
  bodyOffset: number;
}

/** Bytes of each scalar type. */
export const PLY_SIZES: Record<string, number> = {
  char: 1, uchar: 1, int8: 1, uint8: 1,
  short: 2, ushort: 2, int16: 2, uint16: 2,
  int: 4, uint: 4, int32: 4, uint32: 4, float: 4, float32: 4,
  double: 8, float64: 8,
};

const MAX_HEADER = 64 * 1024;

function sizeOf(type: string, line: number): string {
  if (!(type in PLY_SIZES)) fail(`header line ${line}: unknown property type '${type}'`);
  return type;
}

export function parsePlyHeader(bytes: Buffer): PlyHeader {
  const head = bytes.subarray(0, MAX_HEADER).toString('latin1');
  const end = /end_header\r?\n/.exec(head);
  if (!head.startsWith('ply')) fail('not a PLY file (it does not start with "ply")');
  if (!end) fail('the PLY header has no end_header line');
  const lines = head.slice(0, end.index).split(/\r?\n/);
  let format: PlyFormat | null = null;
  const elements: PlyElement[] = [];
  lines.forEach((raw, i) => {
    const parts = raw.trim().split(/\s+/);
    if (parts[0] === 'format') {
      if (parts[1] !== 'ascii' && parts[1] !== 'binary_little_endian' && parts[1] !== 'binary_big_endian') fail(`unsupported PLY format '${parts[1]}'`);
      format = parts[1];
    } else if (parts[0] === 'element') {
      const count = Number(parts[2]);
      if (!Number.isSafeInteger(count) || count < 0) fail(`header line ${i + 1}: element count '${parts[2]}' is not a count`);
      elements.push({ name: parts[1] ?? '', count, properties: [] });
    } else if (parts[0] === 'property') {
      const element = elements.at(-1);
      if (!element) fail(`header line ${i + 1}: a property before any element`);
      if (parts[1] === 'list') element.properties.push({ name: parts[4] ?? '', countType: sizeOf(parts[2] ?? '', i + 1), type: sizeOf(parts[3] ?? '', i + 1) });
      else element.properties.push({ name: parts[2] ?? '', type: sizeOf(parts[1] ?? '', i + 1) });
    }
  });
  if (!format) fail('the PLY header has no format line');
  return { format, elements, bodyOffset: end.index + end[0].length };
}
