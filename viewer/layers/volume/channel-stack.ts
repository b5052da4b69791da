/**
 * @module channel-stack
 * Several channels of one volume step on the stage together, each in its own colour
 * (channel-volume.ts), added up: on the three slices each texel is the sum of its channels'
 * colours (clamped), see-through where every channel is under its floor; in the `volume` view
 * the channels' boxes add their light. The slices follow the stage's slice point.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import { h } from '../../dom.ts';
import { CHANNEL_FLOOR, channelIndex, marchChannels, type ChannelLook } from './channel-volume.ts';
import { createVolumeBase } from './volume-base.ts';
import { volumeFrame } from './volume-frame.ts';
import type { VolumeContent, VolumeStage } from './volume-slices.ts';

/** One channel to draw: its step's samples and its look. */
export interface StackChannel extends ChannelLook {
  volume: VolumeData;
}

/** The stack of `channels` (at least one), all of one shape. */
export function createChannelStack(channels: StackChannel[], stage: VolumeStage): VolumeContent {
  const frame = volumeFrame(channels[0]!.volume);
  const { count } = frame;
  const at = (x: number, y: number, z: number): number => (z * count.y + y) * count.x + x;
  const indexOf = (channel: StackChannel, i: number): number => channelIndex(channel.volume.data[i]!, channel.window);
  const base = createVolumeBase(frame, {
    title: 'Channels',
    alphaTest: 0.5,
    pixel(x, y, z, out, o) {
      const i = at(x, y, z);
      let [r, g, b, seen] = [0, 0, 0, false];
      for (const channel of channels) {
        const k = indexOf(channel, i);
        if (k < CHANNEL_FLOOR) continue;
        seen = true;
        r += (channel.rgb[0] * k) / 255;
        g += (channel.rgb[1] * k) / 255;
        b += (channel.rgb[2] * k) / 255;
      }
      out[o] = Math.min(255, r);
      out[o + 1] = Math.min(255, g);
      out[o + 2] = Math.min(255, b);
      out[o + 3] = seen ? 255 : 0;
    },
    seen: (x, y, z) => channels.some((channel) => indexOf(channel, at(x, y, z)) >= CHANNEL_FLOOR),
    pickedOnSlice: () => true,
    march: () => marchChannels(channels, frame, stage.depth),
    stage,
    picked: (mode) => content.onViewChange?.({ mode }),
  });
  const panel = h('div', { class: 'slice-panel', 'data-testid': 'slice-panel' }, base.title, ...base.planes.rows, base.viewRow);
  const content: VolumeContent = {
    object: frame.outer,
    panel,
    applyView: (view) => base.setMode(view.mode),
    applyDisplay: (display) => base.setMode(display.mode),
    applyLook: base.applyLook,
    pick(ray, kept) {
      const hit = base.pick(ray, kept);
      return hit && { ...hit, voxel: { ...hit.voxel, value: frame.sample(hit.voxel.x, hit.voxel.y, hit.voxel.z) } };
    },
    attach: base.attach,
    dispose: base.dispose,
  };
  return content;
}
