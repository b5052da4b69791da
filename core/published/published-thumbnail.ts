/**
 * @module published-thumbnail
 * The thumbnail of a published specimen, made from its file: a PNG image is its own
 * thumbnail; a volume shows its middle slice across the slowest axis, grey over the slice's
 * own value range; a mesh or a point cloud is drawn by the thumbnail renderers, seen nearly
 * along its thinnest axis (thumbnails/geometry-thumbnail.ts). Made on first request and kept with the specimen's catalog record;
 * a file that cannot be drawn gets the host's placeholder.
 */
import { readFile } from 'node:fs/promises';
import type { ThumbnailSource } from '../catalog/specimen-record.ts';
import { encodePng } from '../formats/png/encode-png.ts';
import { parseCheckedFile } from '../results/parse-checked-file.ts';
import { geometryThumbnail } from '../thumbnails/geometry-thumbnail.ts';
import { selectStep } from '../delivery/select-step.ts';
import { hasSteps, stepLayout } from '../results/volume-axes.ts';
import { VOLUME_FIELD_NAMES } from '../results/volume-fields-input.ts';
import type { PublishedMeta } from './published-record.ts';
import { placeholderPng } from '../catalog/placeholder-png.ts';

/** Longest side of a volume thumbnail, pixels. */
const MAX_SIDE = 256;

/** The middle slice of a C-order volume of `shape` as 8-bit grey, at most MAX_SIDE a side. */
export function middleSlice(data: ArrayLike<number>, shape: number[]): { width: number; height: number; grey: Uint8Array } {
  const [depth, height, width] = shape.length === 3 ? (shape as [number, number, number]) : [1, shape.at(-2) ?? 1, shape.at(-1) ?? 1];
  const step = Math.max(1, Math.ceil(Math.max(width, height) / MAX_SIDE));
  const outW = Math.max(1, Math.floor(width / step));
  const outH = Math.max(1, Math.floor(height / step));
  const base = Math.floor(depth / 2) * width * height;
  const values = new Float64Array(outW * outH);
  let lo = Infinity;
  let hi = -Infinity;
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const v = Number(data[base + y * step * width + x * step]);
      values[y * outW + x] = v;
      if (Number.isFinite(v)) {
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  const grey = new Uint8Array(outW * outH);
  const span = hi > lo ? hi - lo : 1;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    grey[i] = Number.isFinite(v) && Number.isFinite(lo) ? Math.round(((v - lo) / span) * 255) : 0;
  }
  return { width: outW, height: outH, grey };
}

/**
 * The thumbnail of the file at `file`, or the placeholder when it cannot be drawn. A volume
 * with time or channels (as its publisher said) shows its middle step's first channel.
 */
async function drawThumbnail(file: string, meta: PublishedMeta): Promise<Buffer> {
  const described = Object.fromEntries(VOLUME_FIELD_NAMES.filter((name) => meta[name] !== undefined).map((name) => [name, meta[name]]));
  const result = await parseCheckedFile(await readFile(file), meta.file_name, described);
  if (result.type === 'volume') {
    const middle = hasSteps(result) ? selectStep(result, { t: Math.floor(stepLayout(result).steps / 2) }).step : result;
    const { width, height, grey } = middleSlice(middle.data, middle.shape);
    return encodePng({ width, height, channels: 1, data: grey });
  }
  const image = result.type === 'mesh' || result.type === 'point_cloud' ? geometryThumbnail(result) : null;
  return image ? encodePng(image) : placeholderPng();
}

export function publishedThumbnail(meta: PublishedMeta, file: string): ThumbnailSource {
  const name = meta.file_name.toLowerCase();
  if (name.endsWith('.png')) return { kind: 'file', path: file };
  if (meta.type === 'image') return { kind: 'none' };
  let made: Promise<Buffer> | null = null;
  return {
    kind: 'remote',
    fetch: async () => {
      made ??= drawThumbnail(file, meta);
      made.catch(() => (made = null));
      const body = await made;
      return { contentType: 'image/png', length: body.length, body };
    },
  };
}
