/**
 * @module zarr-shard
 * One shard of a level as Zarr v3's `sharding_indexed` codec lays it out: the inner chunks
 * inside the array, each the full chunk shape (padded with 0 past the edge), little-endian and
 * zstd-compressed (zarrita's codec, the reader's own), one after the other in C order, then
 * the index: an offset and a length per inner chunk (little-endian uint64; all ones for a
 * chunk past the array's edge, which a reader fills with 0).
 */
import { registry } from 'zarrita';
import { chunkBytes } from './zarr-chunk.ts';
import { chunkShapeOf, type VolumeOfStore } from './zarr-metadata.ts';
import { shardShapeOf, ZSTD_LEVEL } from './zarr-v3-metadata.ts';

type Encoder = { encode(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> };

let zstd: Promise<Encoder> | null = null;

/** zarrita's zstd codec, loaded once. */
function zstdCodec(): Promise<Encoder> {
  const meta = { dataType: 'uint8' as const, shape: [1], codecs: [], fillValue: 0 };
  zstd ??= registry
    .get('zstd')!()
    .then((entry) => entry.fromConfig({ level: ZSTD_LEVEL, checksum: false }, meta) as unknown as Encoder);
  return zstd;
}

/** Parses a shard key (`c/0/1/2`) for an array of `ndim` axes; null when it is none. */
export function parseShardKey(key: string, ndim: number): number[] | null {
  const parts = key.split('/');
  if (parts.shift() !== 'c' || parts.length !== ndim || !parts.every((p) => /^(0|[1-9]\d{0,8})$/.test(p))) return null;
  return parts.map(Number);
}

/** Shard `index` of `level`; null when it lies outside the array. */
export async function encodeShard(level: VolumeOfStore, index: readonly number[]): Promise<Uint8Array | null> {
  const shard = shardShapeOf(level.shape);
  const chunks = chunkShapeOf(level.shape);
  if (index.some((c, axis) => c * shard[axis]! >= level.shape[axis]!)) return null;
  const codec = await zstdCodec();
  const per = shard.map((n, axis) => n / chunks[axis]!);
  const count = per.reduce((a, b) => a * b, 1);
  const table = new BigUint64Array(count * 2);
  const parts: Uint8Array[] = [];
  let offset = 0;
  const at = new Array<number>(per.length).fill(0);
  for (let k = 0; k < count; k++) {
    const chunk = at.map((c, axis) => index[axis]! * per[axis]! + c);
    const raw = chunkBytes(level, chunks, chunk);
    if (raw) {
      const encoded = await codec.encode(raw);
      parts.push(encoded);
      table[2 * k] = BigInt(offset);
      table[2 * k + 1] = BigInt(encoded.byteLength);
      offset += encoded.byteLength;
    } else {
      table[2 * k] = table[2 * k + 1] = 0xffffffffffffffffn;
    }
    for (let axis = per.length - 1; axis >= 0; axis--) {
      if (++at[axis]! < per[axis]!) break;
      at[axis] = 0;
    }
  }
  parts.push(new Uint8Array(table.buffer));
  return Buffer.concat(parts);
}
