/**
 * @module step-content
 * What one step of a volume with time or channels is drawn as: a single scalar volume (a
 * time-lapse of one channel, a vector field's magnitude or one component) as any volume is,
 * with a colour map; several channels each in its colour, added up; a vector field's
 * direction, which comes as red, green and blue bytes per voxel, as three such channels in
 * red, green and blue, so the colours add back up to the voxel's own.
 *
 * Channels added up (each in its own colour, channel-volume.ts): on the three slices each texel
 * is the sum of its channels' colours (clamped), see-through where every channel is under its
 * floor; in the `volume` view the channels' boxes add their light. The slices follow the
 * stage's slice point.
 */
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import { h, toolRow } from '../../dom.ts';
import type { StepChannel } from '../../time/step-cache.ts';
import { CHANNEL_FLOOR, channelIndex, marchChannels, type ChannelLook } from './channel-volume.ts';
import { createVolumeBase, type VolumeStage } from './volume-base.ts';
import { volumeFrame } from './volume-frame.ts';
import { VolumeSlices, type VolumeContent } from './volume-slices.ts';

/** One fetched piece of a step: a channel (or vector mode) and its samples. */
export interface StepPiece {
  c: StepChannel;
  data: VolumeData;
}

const COMPONENTS = ['x', 'y', 'z'];

/**
 * How a vector field is drawn: the mode picker (`select[data-control=vector-mode]`), offering
 * its magnitude, one of its components, or its direction as colour (each component mapped from
 * minus to plus the largest magnitude onto red, green and blue); `picked` gets the `c` chosen
 * (each mode is the `c` a step is fetched with). The choice is this page's own: a room's layer
 * has no field for it.
 */
export function createVectorMode(initial: StepChannel, picked: (c: StepChannel) => void): HTMLElement {
  const select = h('select', { class: 'select small', 'aria-label': 'vector field shown as', 'data-control': 'vector-mode' });
  select.append(
    h('option', { value: 'magnitude' }, 'magnitude'),
    ...COMPONENTS.map((name, i) => h('option', { value: String(i) }, `component ${name}`)),
    h('option', { value: 'rgb' }, 'direction as RGB'),
  );
  select.value = String(initial);
  select.addEventListener('change', () =>
    picked(select.value === 'magnitude' || select.value === 'rgb' ? select.value : Number(select.value)),
  );
  return toolRow('label', 'show', null, select);
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

/** One channel to draw: its step's samples and its look. */
interface StackChannel extends ChannelLook {
  volume: VolumeData;
}

/** The stack of `channels` (at least one), all of one shape. */
function createChannelStack(channels: StackChannel[], stage: VolumeStage): VolumeContent {
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
