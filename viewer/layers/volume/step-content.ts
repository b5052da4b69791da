/**
 * @module step-content
 * What one step of a volume with time or channels is drawn as: a single scalar volume (a
 * time-lapse of one channel, a vector field's magnitude or one component) as any volume is,
 * with a colour map; several channels each in its colour, added up (channel-stack.ts); a
 * vector field's direction, which comes as red, green and blue bytes per voxel, as three such
 * channels in red, green and blue, so the colours add back up to the voxel's own.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import { createChannelStack, type StackChannel } from './channel-stack.ts';
import type { ChannelLook } from './channel-volume.ts';
import { VolumeSlices, type VolumeContent, type VolumeStage } from './volume-slices.ts';

/** One fetched piece of a step: a channel (or vector mode) and its samples. */
export interface StepPiece {
  c: number | 'magnitude' | 'rgb';
  data: VolumeData;
}

const PRIMARIES: [number, number, number][] = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
];

/** An RGB step (`[z, y, x, 3]` bytes) as its three components, each a volume of its own. */
export function splitRgb(volume: VolumeData): VolumeData[] {
  const shape = volume.shape.slice(0, -1);
  const n = volume.data.length / 3;
  return PRIMARIES.map((_, k) => {
    const data = new Uint8Array(n);
    for (let i = 0, o = k; i < n; i++, o += 3) data[i] = volume.data[o]!;
    return { ...volume, shape, dtype: 'uint8', data, value_range: [0, 255] };
  });
}

/**
 * The content of a step from its pieces; `looks` gives each channel's colour and window when
 * the step has a channel axis (null: one scalar volume with a colour map).
 */
export function createStepContent(pieces: StepPiece[], looks: ((c: number) => ChannelLook) | null, stage: VolumeStage): VolumeContent {
  const only = pieces[0]!;
  if (only.c === 'rgb') {
    return createChannelStack(
      splitRgb(only.data).map((volume, k) => ({ volume, rgb: PRIMARIES[k]!, window: [0, 255] })),
      stage,
    );
  }
  if (looks === null || typeof only.c !== 'number') return new VolumeSlices(only.data, stage);
  return createChannelStack(
    pieces.map((piece): StackChannel => ({ volume: piece.data, ...looks(piece.c as number) })),
    stage,
  );
}
