/**
 * The thumbnail renderers draw each kind of result into the frame: the subject covers the
 * centre, the corners keep the backdrop, and the dispatcher picks the renderer by shape.
 */
import { describe, expect, it } from 'vitest';
import type { SpecimenResult } from 'vitrine';
import { createBackdrop, type Canvas } from '../../core/thumbnails/canvas.ts';
import { renderResult } from '../../core/thumbnails/render-result.ts';
import { icosphere } from '../../plugins/parametric-shapes/index.ts';
import { gaussian_blobs } from '../../plugins/scalar-volumes/index.ts';

const pixel = (canvas: Canvas, x: number, y: number): number[] =>
  [...canvas.rgb.subarray((y * canvas.width + x) * 3, (y * canvas.width + x) * 3 + 3)];

/** Largest channel difference to the backdrop (supersampled renderers average it a little). */
function fromBackdrop(canvas: Canvas, x: number, y: number): number {
  const backdrop = pixel(createBackdrop(canvas.width, canvas.height), x, y);
  return Math.max(...pixel(canvas, x, y).map((v, k) => Math.abs(v - backdrop[k]!)));
}

function expectSubjectCentred(canvas: Canvas): void {
  const c = canvas.width / 2;
  expect(fromBackdrop(canvas, c, c)).toBeGreaterThan(0.1);
  expect(fromBackdrop(canvas, 1, 1)).toBeLessThan(0.005);
  expect(fromBackdrop(canvas, canvas.width - 2, canvas.height - 2)).toBeLessThan(0.005);
}

describe('thumbnail renderers', () => {
  it('shade a mesh with light from the upper left', () => {
    const canvas = renderResult('icosphere', icosphere(1, 2));
    expect(canvas.width).toBe(256);
    expectSubjectCentred(canvas);
    const brightness = (x: number, y: number): number => pixel(canvas, x, y).reduce((a, b) => a + b, 0);
    expect(brightness(100, 100)).toBeGreaterThan(brightness(156, 156));
  });

  it('project a volume', () => {
    expectSubjectCentred(renderResult('volume-test', gaussian_blobs(1, 24, 0.5, 1)));
  });

  it('splat a point cloud and fit an image', () => {
    // A deterministic scatter filling a cube densely.
    const points = new Float32Array(900_000).map((_, i) => ((Math.sin(i * 12.9898) * 43758.5453) % 1) * 0.5);
    expectSubjectCentred(renderResult('points-test', { points, colors: new Uint8Array(900_000).fill(200) }));
    const data = new Uint8Array(64 * 32 * 3).fill(255);
    const image: SpecimenResult = { width: 64, height: 32, channels: 3, data };
    const canvas = renderResult('image-test', image);
    expect(pixel(canvas, 128, 128)).toEqual([1, 1, 1]);
    // A wide image is letterboxed: the top rows keep the backdrop.
    expect(fromBackdrop(canvas, 128, 10)).toBe(0);
  });
});
