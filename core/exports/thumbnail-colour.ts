/**
 * @module thumbnail-colour
 * The colour the page gives the mesh of a specimen that declares none: its thumbnail's
 * subject (wire/subject-colour.ts), read here from the same thumbnail the page loads. Only a
 * PNG thumbnail (a file, or a data URI) is read: the host decodes no other image type, and a
 * thumbnail it cannot read gives no colour (the page's default blue). Each thumbnail's colour
 * is kept, keyed by where it lives, as the page keeps it per thumbnail URL.
 */
import { readFile } from 'node:fs/promises';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { parseDataUri } from '../catalog/data-uri.ts';
import { parsePng } from '../formats/png/parse-png.ts';
import { SUBJECT_SIDE, subjectRgb } from '../wire/subject-colour.ts';

/** Thumbnails' colours kept at most (a catalog's worth). */
const KEPT = 512;
const kept = new Map<string, string | null>();

/** The source pixels [from, to) that output pixel `i` of SUBJECT_SIDE covers along an axis `n` long (at least one). */
function span(i: number, n: number): [number, number] {
  const from = Math.min(n - 1, Math.floor((i * n) / SUBJECT_SIDE));
  return [from, Math.min(n, Math.max(from + 1, Math.floor(((i + 1) * n) / SUBJECT_SIDE)))];
}

/** RGBA bytes of `data` (`width` × `height`) averaged down to SUBJECT_SIDE × SUBJECT_SIDE, as the page draws it smaller. */
function shrink(data: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(SUBJECT_SIDE * SUBJECT_SIDE * 4);
  for (let y = 0; y < SUBJECT_SIDE; y++) {
    const [y0, y1] = span(y, height);
    for (let x = 0; x < SUBJECT_SIDE; x++) {
      const [x0, x1] = span(x, width);
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++) for (let sx = x0; sx < x1; sx++) for (let k = 0; k < 4; k++) sum[k]! += data[(sy * width + sx) * 4 + k]!;
      for (let k = 0; k < 4; k++) out[(y * SUBJECT_SIDE + x) * 4 + k] = Math.round(sum[k]! / ((y1 - y0) * (x1 - x0)));
    }
  }
  return out;
}

/** The PNG bytes of `record`'s thumbnail and where they live, or null for any other thumbnail. */
async function pngOf(record: SpecimenRecord): Promise<{ key: string; bytes: () => Promise<Buffer> } | null> {
  const source = record.thumbnail;
  if (source.kind === 'file' && /\.png$/i.test(source.path)) return { key: source.path, bytes: () => readFile(source.path) };
  if (source.kind !== 'data-uri') return null;
  const decoded = parseDataUri(source.uri);
  return decoded?.mediaType === 'image/png' ? { key: `${record.id}:${source.uri.length}`, bytes: async () => decoded.bytes } : null;
}

/** The `#rrggbb` of `record`'s thumbnail's subject, or undefined (no PNG thumbnail, or only dark and grey in it). */
export async function thumbnailColour(record: SpecimenRecord): Promise<string | undefined> {
  const png = await pngOf(record);
  if (!png) return undefined;
  if (!kept.has(png.key)) {
    let colour: string | null = null;
    try {
      // parsePng answers 8-bit RGBA.
      const image = parsePng(await png.bytes()) as unknown as { data: Uint8Array; width: number; height: number };
      const rgb = subjectRgb(shrink(image.data, image.width, image.height));
      colour = rgb && `#${rgb.map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('')}`;
    } catch {
      // An unreadable thumbnail gives no colour, as an image the page cannot decode.
    }
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
    kept.set(png.key, colour);
  }
  return kept.get(png.key) ?? undefined;
}
