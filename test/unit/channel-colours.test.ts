/**
 * How a channel's samples become colour: its window maps a sample onto 0..255, a ramp takes
 * that from black to the channel's colour, `#rrggbb` reads as bytes, and a vector field's
 * direction step (red, green and blue bytes per voxel, last axis) splits into three volumes
 * whose primaries add back up to each voxel's own colour.
 */
import { describe, expect, it } from 'vitest';
import type { VolumeData } from '../../core/wire/decoded-types.ts';
import { channelIndex, rampTable, rgbOf } from '../../viewer/layers/volume/channel-volume.ts';
import { splitRgb } from '../../viewer/layers/volume/step-content.ts';

describe('channel colours', () => {
  it('maps a sample through the window onto 0..255, clamped at both ends', () => {
    expect([-1, 0, 50, 100, 200].map((v) => channelIndex(v, [0, 100]))).toEqual([0, 0, 128, 255, 255]);
    // A window of no width does not divide by zero.
    expect(channelIndex(5, [5, 5])).toBe(0);
  });

  it('ramps from black to the colour', () => {
    const table = rampTable([255, 0, 128]);
    expect([...table.subarray(0, 3)]).toEqual([0, 0, 0]);
    expect([...table.subarray(255 * 3, 256 * 3)]).toEqual([255, 0, 128]);
    expect([...table.subarray(51 * 3, 52 * 3)]).toEqual([51, 0, 26]);
  });

  it('reads #rrggbb as bytes, anything else as white', () => {
    expect(rgbOf('#00ff80')).toEqual([0, 255, 128]);
    expect(rgbOf('#FF0000')).toEqual([255, 0, 0]);
    expect(rgbOf('red')).toEqual([255, 255, 255]);
    expect(rgbOf(undefined)).toEqual([255, 255, 255]);
  });

  it('splits a direction step into its red, green and blue volumes', () => {
    const step: VolumeData = {
      type: 'volume', shape: [1, 1, 2, 3], dtype: 'uint8', data: new Uint8Array([10, 20, 30, 40, 50, 60]),
      spacing: [2, 1, 1], origin: [0, 0, 0], value_range: [-1, 1],
    };
    const [r, g, b] = splitRgb(step);
    expect([r, g, b].map((v) => [...v!.data])).toEqual([[10, 40], [20, 50], [30, 60]]);
    expect(r!.shape).toEqual([1, 1, 2]);
    expect(r!.value_range).toEqual([0, 255]);
    expect(r!.spacing).toEqual([2, 1, 1]);
  });
});
