/** The viewer's per-specimen mesh colour (viewer/layers/mesh/mesh-colour.ts). */
import { SRGBColorSpace } from 'three';
import { describe, expect, it } from 'vitest';
import { declaredColour, subjectColour } from '../../viewer/layers/mesh/mesh-colour.ts';

/** RGBA pixels: `n` of each colour. */
function pixels(...runs: [number, [number, number, number]][]): Uint8Array {
  const out: number[] = [];
  for (const [n, [r, g, b]] of runs) for (let i = 0; i < n; i++) out.push(r, g, b, 255);
  return Uint8Array.from(out);
}

describe('subjectColour', () => {
  it('takes the hue of the lit, saturated subject and ignores the dark background and grey highlights', () => {
    // Mostly dark blue-grey background, a white highlight, an orange subject in light and shadow.
    const colour = subjectColour(pixels([500, [16, 20, 30]], [40, [250, 250, 250]], [80, [230, 150, 80]], [40, [115, 75, 40]]))!;
    const hex = colour.getHexString(SRGBColorSpace);
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(g! + 40);
    expect(g).toBeGreaterThan(b! + 40);
  });

  it('gives null for a picture with no colour (the placeholder thumbnail)', () => {
    // The faces of the host's placeholder PNG (core/catalog/placeholder-png.ts) are a faint slate.
    expect(subjectColour(pixels([100, [92, 101, 118]], [100, [66, 74, 89]], [100, [50, 57, 70]], [100, [10, 12, 16]]))).toBeNull();
  });
});

describe('declaredColour', () => {
  it('reads #rrggbb and nothing else', () => {
    expect(declaredColour('#d9534f')?.getHexString(SRGBColorSpace)).toBe('d9534f');
    expect(declaredColour('red')).toBeNull();
    expect(declaredColour(undefined)).toBeNull();
  });
});
