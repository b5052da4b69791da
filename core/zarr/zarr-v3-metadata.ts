/**
 * @module zarr-v3-metadata
 * The metadata documents of a volume result as an OME-Zarr v0.5 image on Zarr v3: the root
 * `zarr.json` (a group whose `attributes.ome` holds the same `multiscales`, `omero` or
 * `image-label` as the v0.4 store's `.zattrs`, with `version: "0.5"` once, on `ome`) and each
 * level's `zarr.json` (an array of shards: `sharding_indexed` with inner chunks of at most
 * 64 per spatial axis, as the v0.4 store's chunks are, each zstd-compressed, the index at the
 * shard's end). The levels and values are the v0.4 store's own (one pyramid for both).
 */
import type { VolumeOfStore } from './zarr-metadata.ts';
import { chunkShapeOf, zattrs } from './zarr-metadata.ts';

/** Inner chunks per shard along each of the last three axes (a shard spans at most 128 samples there). */
export const SHARD_CHUNKS = 2;

/** zstd level of the inner chunks: fast, and smaller than gzip on volumes. */
export const ZSTD_LEVEL = 1;

/** A shard's shape: `SHARD_CHUNKS` inner chunks along the spatial axes, one along time and channels. */
export function shardShapeOf(shape: readonly number[]): number[] {
  return chunkShapeOf(shape).map((n, axis) => (axis >= shape.length - 3 ? n * SHARD_CHUNKS : n));
}

const BYTES_CODEC = { name: 'bytes', configuration: { endian: 'little' } };

/** The root `zarr.json`: the v0.4 attributes moved under `ome`, their version said there once. */
export function rootZarrJson(levels: readonly VolumeOfStore[], name: string, imageLabel?: object): object {
  const v04 = zattrs(levels, name, imageLabel) as { multiscales: Record<string, unknown>[]; omero?: Record<string, unknown> } & Record<string, unknown>;
  const { multiscales, omero, ...rest } = v04;
  const ome: Record<string, unknown> = { version: '0.5', multiscales: multiscales.map(({ version: _v, ...entry }) => entry), ...rest };
  if (omero) {
    const { version: _v, ...display } = omero;
    ome.omero = display;
  }
  return { zarr_format: 3, node_type: 'group', attributes: { ome } };
}

/** The `zarr.json` of one level, `axes` its dimension names (`zyx`, `tczyx`, ...). */
export function arrayZarrJson(level: VolumeOfStore, axes: string): object {
  return {
    zarr_format: 3,
    node_type: 'array',
    shape: level.shape,
    data_type: level.dtype,
    chunk_grid: { name: 'regular', configuration: { chunk_shape: shardShapeOf(level.shape) } },
    chunk_key_encoding: { name: 'default', configuration: { separator: '/' } },
    codecs: [
      {
        name: 'sharding_indexed',
        configuration: {
          chunk_shape: chunkShapeOf(level.shape),
          codecs: [BYTES_CODEC, { name: 'zstd', configuration: { level: ZSTD_LEVEL, checksum: false } }],
          index_codecs: [BYTES_CODEC],
          index_location: 'end',
        },
      },
    ],
    fill_value: 0,
    dimension_names: [...axes],
    attributes: {},
  };
}
