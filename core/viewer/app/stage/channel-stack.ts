/**
 * @module channel-stack
 * Several channels of one volume step on the stage together, each in its own colour
 * (channel-volume.ts) and blended additively whatever the layer's blending: where two channels
 * are bright their colours add up. They share one frame, one set of slices (the stage's slice
 * point moves them all; the panel shows the first one's sliders) and one view picker.
 */
import * as THREE from 'three';
import type { VolumeData } from '../../../client/decoded-types.ts';
import { h } from '../dom.ts';
import { createChannelVolume, type ChannelLook, type ChannelVolume } from './channel-volume.ts';
import type { VolumeMode } from './volume-base.ts';
import type { VolumeContent, VolumeStage } from './volume-slices.ts';

/** One channel to draw: its step's samples and its look. */
export interface StackChannel extends ChannelLook {
  volume: VolumeData;
}

/** The stack of `channels` (at least one), all of one shape. */
export function createChannelStack(channels: StackChannel[], stage: VolumeStage): VolumeContent {
  const volumes: ChannelVolume[] = channels.map((channel) => createChannelVolume(channel.volume, channel, stage));
  const object = new THREE.Group();
  for (const volume of volumes) object.add(volume.base.frame.outer);
  const first = volumes[0]!.base;
  const title = h('div', { class: 'slice-title' }, 'Channels: slices');
  const picker = h('select', { class: 'select small', 'aria-label': 'volume view', 'data-axis': 'view' });
  for (const mode of ['slices', 'volume']) picker.appendChild(h('option', { value: mode }, mode));
  const setMode = (mode: VolumeMode): void => {
    for (const volume of volumes) volume.base.setMode(mode);
    picker.value = first.mode();
    title.textContent = `Channels: ${first.mode()}`;
  };
  picker.addEventListener('change', () => {
    setMode(picker.value as VolumeMode);
    content.onViewChange?.({ mode: first.mode() });
  });
  const panel = h(
    'div',
    { class: 'slice-panel', 'data-testid': 'slice-panel' },
    title,
    ...first.planes.rows,
    h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, 'view'), picker),
  );
  const content: VolumeContent = {
    object,
    panel,
    applyView(view) {
      if (view.mode === 'slices' || view.mode === 'volume') setMode(view.mode);
    },
    applyDisplay(display) {
      if (display.mode === 'slices' || display.mode === 'volume') setMode(display.mode);
    },
    applyLook(look) {
      // Channels always add their light; the layer's opacity, clip planes and order still hold.
      for (const volume of volumes) volume.base.applyLook({ ...look, blending: 'additive' });
    },
    pick(ray, kept) {
      const hit = first.pick(ray, kept);
      return hit && { ...hit, voxel: { ...hit.voxel, value: volumes[0]!.sample(hit.voxel.x, hit.voxel.y, hit.voxel.z) } };
    },
    attach() {
      for (const volume of volumes) volume.base.attach();
    },
    dispose() {
      for (const volume of volumes) volume.dispose();
    },
  };
  return content;
}
