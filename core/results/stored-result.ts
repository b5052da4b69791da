/**
 * @module stored-result
 * A result as the host keeps it: tagged with its type, checked against the declared return
 * type, every array in shared memory (so caches, encoders and worker threads read it without
 * copies). Everything that holds or sends results speaks this type.
 */
import type { TaggedResult } from '../sdk/result-types.ts';
import type { VolumeStep } from './volume-axes.ts';

export type StoredResult = TaggedResult & {
  /** Volumes: finite [min, max] of the data, computed where the result was checked. */
  valueRange?: [number, number];
  /** Volumes with time or channels: each channel's finite [min, max] over every step. */
  channelRanges?: [number, number][];
  /** Vector fields: the largest magnitude over every voxel of every step. */
  magnitudeMax?: number;
  /** A step of a volume with time or channels, as a delivery made it: which one, of what. */
  step?: VolumeStep;
};

/** A stored volume result. */
export type StoredVolume = Extract<StoredResult, { type: 'volume' }>;
