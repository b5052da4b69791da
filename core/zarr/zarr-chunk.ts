/**
 * @module zarr-chunk
 * One chunk of a volume as Zarr v2 stores it: the samples of a block of the C-order array,
 * always the full chunk shape (a block past the array's edge is padded with the fill value,
 * 0), little-endian, then gzip-compressed (on libuv's thread pool, off the event loop).
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { GZIP_LEVEL, type VolumeOfStore } from './zarr-metadata.ts';

const gzipAsync = promisify(gzip);

/**
 * Parses a chunk key for an array of `ndim` axes: `3/0/1` as the store declares, or `3.0.1`
 * as the store's first version named its chunks (links already shared keep working); null
 * when it is none.
 */
export function parseChunkKey(key: string, ndim: number): number[] | null {
  const parts = key.includes('/') ? key.split('/') : key.split('.');
  if (parts.length !== ndim || !parts.every((p) => /^(0|[1-9]\d{0,8})$/.test(p))) return null;
  return parts.map(Number);
}

/** The raw bytes of chunk `index`; null when the index lies outside the array. */
export function chunkBytes(volume: VolumeOfStore, chunks: readonly number[], index: readonly number[]): Uint8Array | null {
  const { shape, data } = volume;
  const n = shape.length;
  if (index.some((c, axis) => c * chunks[axis]! >= shape[axis]!)) return null;
  const item = data.BYTES_PER_ELEMENT;
  const source = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(chunks.reduce((a, b) => a * b, 1) * item);
  // Strides (in elements) of the array and of the chunk.
  const stride = new Array<number>(n).fill(1);
  const chunkStride = new Array<number>(n).fill(1);
  for (let axis = n - 2; axis >= 0; axis--) {
    stride[axis] = stride[axis + 1]! * shape[axis + 1]!;
    chunkStride[axis] = chunkStride[axis + 1]! * chunks[axis + 1]!;
  }
  const start = index.map((c, axis) => c * chunks[axis]!);
  const extent = start.map((s, axis) => Math.min(chunks[axis]!, shape[axis]! - s));
  const rowBytes = extent[n - 1]! * item;
  // Walk every row (all axes but the last) of the block inside the array; copy it whole.
  const at = new Array<number>(n - 1).fill(0);
  for (;;) {
    let from = start[n - 1]!;
    let to = 0;
    for (let axis = 0; axis < n - 1; axis++) {
      from += (start[axis]! + at[axis]!) * stride[axis]!;
      to += at[axis]! * chunkStride[axis]!;
    }
    out.set(source.subarray(from * item, from * item + rowBytes), to * item);
    let axis = n - 2;
    while (axis >= 0 && ++at[axis]! >= extent[axis]!) at[axis--] = 0;
    if (axis < 0) return out;
  }
}

/** Chunk `index` gzip-compressed, as the `.zarray` declares; null outside the array. */
export async function encodeChunk(volume: VolumeOfStore, chunks: readonly number[], index: readonly number[]): Promise<Buffer | null> {
  const raw = chunkBytes(volume, chunks, index);
  return raw ? gzipAsync(raw, { level: GZIP_LEVEL }) : null;
}
