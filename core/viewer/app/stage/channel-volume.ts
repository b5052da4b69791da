/**
 * @module channel-volume
 * One channel of a volume drawn in its own colour: a sample's place in the channel's window
 * scales the colour from black (the window's low end) to full (its top), on the three slices
 * and, in the `volume` view, ray marched through a black-to-colour map. Drawn with additive
 * blending beside its sibling channels (channel-stack.ts), black adds nothing and two
 * channels where both are bright add up (red and green make yellow).
 */
import type { VolumeData } from '../../../client/decoded-types.ts';
import { finiteRange } from './colormaps.ts';
import { createVolumeBase, type VolumeBase } from './volume-base.ts';
import { volumeFrame } from './volume-frame.ts';
import { createRaymarchedVolume, type RaymarchedVolume } from './volume-raymarch.ts';
import type { VolumeStage } from './volume-slices.ts';

/** A channel's colour as bytes, and its window in data units. */
export interface ChannelLook {
  rgb: [number, number, number];
  window: [number, number];
}

export interface ChannelVolume {
  base: VolumeBase;
  /** The sample of voxel (x, y, z). */
  sample(x: number, y: number, z: number): number;
  dispose(): void;
}

/** Colour-map index (0..255) under which a sample is see-through. */
const FLOOR = 3;

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

export function createChannelVolume(volume: VolumeData, look: ChannelLook, stage: VolumeStage): ChannelVolume {
  const [min, max] = volume.value_range ?? finiteRange(volume.data);
  const span = max - min || 1;
  const [low, high] = look.window;
  const width = high - low || 1;
  const table = rampTable(look.rgb);
  const frame = volumeFrame(volume);
  const indexOf = (v: number): number => Math.round(Math.max(0, Math.min(1, (v - low) / width)) * 255);
  let raymarch: RaymarchedVolume | null = null;
  const base = createVolumeBase(frame, {
    title: '',
    alphaTest: 0.5,
    pixel(x, y, z, out, o) {
      const k = indexOf(frame.sample(x, y, z));
      out.set(table.subarray(k * 3, k * 3 + 3), o);
      out[o + 3] = k < FLOOR ? 0 : 255;
    },
    seen: (x, y, z) => indexOf(frame.sample(x, y, z)) >= FLOOR,
    pickedOnSlice: () => true,
    march() {
      const { count, dims } = frame;
      raymarch = createRaymarchedVolume(volume.data, { w: count.x, h: count.y, d: count.z }, { min, span }, dims, table, stage.depth);
      raymarch.setWindow((low - min) / span, (high - min) / span);
      raymarch.setFloor(FLOOR);
      return raymarch;
    },
    link: stage.link,
    changed: stage.changed,
    picked: () => {},
  });
  return { base, sample: frame.sample, dispose: base.dispose };
}
