/**
 * The viewer's default display window (core/wire/window-level.ts, shared with the room's picture): percentiles
 * from the histogram, a see-through floor past a background peak, and a window read from
 * the body past it (the example phantom, stretched to 12 bits).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';
import { defaultWindow, histogramOf } from '../../core/wire/window-level.ts';

describe('defaultWindow', () => {
  it('spans the 1st to 99th percentile, so a few outliers do not set the range', () => {
    const data = new Float32Array(10_000);
    for (let i = 0; i < data.length; i++) data[i] = i / data.length; // 0..1, evenly
    data[0] = -1000;
    data[1] = 1000;
    const window = defaultWindow(data, -1000, 1000);
    expect(window.low).toBeGreaterThan(-5);
    expect(window.low).toBeLessThan(0.05);
    expect(window.high).toBeGreaterThan(0.95);
    expect(window.high).toBeLessThan(5);
    // No background peak at the bottom: nothing is hidden.
    expect(window.floor).toBe(-1000);
  });

  it('makes a background peak see-through and keeps what lies past it', () => {
    // Mostly "air" around 12 with noise, some "tissue" at 52 and a little "bone" at 210, as uint8.
    const data = new Uint8Array(100_000);
    for (let i = 0; i < data.length; i++) data[i] = i % 10 < 7 ? 10 + (i % 5) : i % 10 < 9 ? 52 : 210;
    const window = defaultWindow(data, 0, 222);
    expect(window.floor).toBeGreaterThan(14);
    expect(window.floor).toBeLessThan(52);
    // The window is read from what lies past the background; bone is a third of it, so it stays inside.
    expect(window.low).toBeGreaterThan(window.floor);
    expect(window.low).toBeLessThanOrEqual(52);
    expect(window.high).toBeGreaterThan(210);
  });

  it('opens a 12-bit head on its inside: the skull saturates, brain and lesions take distinct colours', async () => {
    // The example phantom (uint8, 0..222), stretched to 12 bits over 0..4095.
    const file = await readFile(path.join(REPO, 'specimens', 'ct-head-phantom', 'head-phantom.npy'));
    const bytes = file.subarray(10 + file.readUInt16LE(8));
    const data = new Uint16Array(bytes.length);
    for (let i = 0; i < bytes.length; i++) data[i] = Math.round((bytes[i]! / 222) * 4095);
    const window = defaultWindow(data, 0, 4095);
    const share = (uint8: number): number => ((uint8 / 222) * 4095 - window.low) / (window.high - window.low);
    // Air (about 12) is under the floor; brain (about 53) and the brighter lesions (about 72) are
    // a good part of the colour map apart; the skull (about 212) is past the window's top.
    expect(window.floor).toBeGreaterThan((14 / 222) * 4095);
    expect(window.low).toBeGreaterThan(window.floor);
    expect(share(53)).toBeGreaterThan(0);
    expect(share(72) - share(53)).toBeGreaterThan(0.15);
    expect(share(212)).toBeGreaterThan(1);
    expect(window.high - window.low).toBeLessThan(4095 / 2);
  });

  it('gives the whole range for a constant volume', () => {
    expect(defaultWindow(new Float32Array(8).fill(3), 3, 3)).toEqual({ low: 3, high: 3, floor: 3 });
  });

  it('skips values that are not finite', () => {
    const counts = histogramOf([0, 1, NaN, Infinity, 0.5], 0, 1, 4);
    expect([...counts].reduce((a, b) => a + b, 0)).toBe(3);
  });
});
