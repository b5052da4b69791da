/**
 * @module remote-specimen
 * A specimen published from a remote (what it shows of which image) and what publishing one
 * answers: its sizes, levels and geometry, as its selection (level, channel, time step) leaves them.
 */
import type { RemoteImage } from './remote-image.ts';
import type { RemotePublishInput } from './remote-publish-input.ts';
import { selectedAxes, selectedShape } from './read-remote-volume.ts';

/** A specimen published from a remote: what it shows of which image. */
export interface RemoteSpecimen {
  id: string;
  input: RemotePublishInput;
  image: RemoteImage;
  published_at: number;
}

/** What a remote publish answers: the specimen's sizes, levels and geometry. */
export interface RemoteSpecimenInfo {
  id: string;
  remote: string;
  type: 'volume';
  display_name: string;
  description: string;
  tags: string[];
  format: 'ome-zarr-0.4' | 'ome-zarr-0.5';
  axes: string;
  shape: number[];
  dtype: string;
  /** Each level's shape, the specimen's finest first. */
  levels: number[][];
  spacing: number[];
  origin: number[];
  labels: boolean;
  level: number;
  channel: number | null;
  t: number | null;
  published_at: number;
  /** The room it was published for; absent when it is everyone's. */
  room?: string;
}

/** The answer of a remote publish. */
export function infoOf(specimen: RemoteSpecimen): RemoteSpecimenInfo {
  const { image, input } = specimen;
  const levels = image.levels.slice(input.level);
  const level = levels[0]!;
  return {
    id: specimen.id,
    remote: input.remote,
    type: 'volume',
    display_name: input.display_name ?? image.name ?? specimen.id,
    description: input.description ?? '',
    tags: input.tags,
    format: image.zarrFormat === 3 ? 'ome-zarr-0.5' : 'ome-zarr-0.4',
    axes: selectedAxes(image, input),
    shape: selectedShape(image, level, input),
    dtype: image.dtype,
    levels: levels.map((l) => selectedShape(image, l, input)),
    spacing: level.scale?.slice(-3) ?? [1, 1, 1],
    origin: level.translation?.slice(-3) ?? [0, 0, 0],
    labels: input.labels,
    level: input.level,
    channel: input.channel,
    t: input.t,
    published_at: specimen.published_at,
    ...(input.room !== undefined ? { room: input.room } : {}),
  };
}
