/**
 * @module channel-volume
 * One channel of a volume in its own colour: a sample's place in the channel's window scales
 * the colour from black (the window's low end) to full (its top). On slices the channels of a
 * voxel are summed texel by texel (step-content.ts); ray marched, each channel is a box of
 * its own, marched through a black-to-colour map and blended additively, so where two channels
 * are bright their light adds up (red and green make yellow) and black adds nothing.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { SceneDepthUniforms } from '../../stage/scene-depth.ts';
import type { LayerLook } from '../../stage/stage-content.ts';
import type { Marched } from './volume-base.ts';
import type { VolumeFrame } from './volume-frame.ts';
import { createRaymarchedVolume, type RaymarchedVolume } from './volume-raymarch.ts';
import { finiteRange } from './colormaps.ts';

/** A channel's colour as bytes, and its window in data units. */
export interface ChannelLook {
  rgb: [number, number, number];
  window: [number, number];
}

/** Colour-map index (0..255) under which a sample is see-through. */
export const CHANNEL_FLOOR = 3;

/** A map from black to `rgb` in 256 steps. */
export function rampTable([r, g, b]: [number, number, number]): Uint8Array {
  const table = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) table.set([Math.round((r * i) / 255), Math.round((g * i) / 255), Math.round((b * i) / 255)], i * 3);
  return table;
}

/** `#rrggbb` as bytes (white when it is no such colour). */
export function rgbOf(color: string | undefined): [number, number, number] {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color ?? '');
  return m ? [parseInt(m[1]!, 16), parseInt(m[2]!, 16), parseInt(m[3]!, 16)] : [255, 255, 255];
}

/** The place (0..255) of sample `v` in `window`. */
export function channelIndex(v: number, [low, high]: [number, number]): number {
  return Math.round(Math.max(0, Math.min(1, (v - low) / (high - low || 1))) * 255);
}

/** The ray-marched boxes of `channels` (in `frame`), one a child of the first, all blended additively. */
export function marchChannels(channels: (ChannelLook & { volume: VolumeData })[], frame: VolumeFrame, depth: SceneDepthUniforms): Marched {
  const { count, dims } = frame;
  const boxes: RaymarchedVolume[] = channels.map(({ volume, rgb, window: [low, high] }) => {
    const [min, max] = volume.value_range ?? finiteRange(volume.data);
    const span = max - min || 1;
    const box = createRaymarchedVolume(volume.data, count, { min, span }, dims, rampTable(rgb), depth);
    box.setWindow((low - min) / span, (high - min) / span);
    box.setFloor(CHANNEL_FLOOR);
    return box;
  });
  const [first, ...rest] = boxes;
  for (const box of rest) {
    // The first box's scale (the volume's size) already holds for its children.
    box.mesh.scale.set(1, 1, 1);
    first!.mesh.add(box.mesh);
  }
  return {
    mesh: first!.mesh,
    applyLook(look: LayerLook) {
      for (const box of boxes) box.applyLook({ ...look, blending: 'additive' });
    },
    dispose() {
      for (const box of boxes) box.dispose();
    },
  };
}
