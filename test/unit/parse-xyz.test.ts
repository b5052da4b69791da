/** The viewer's `.xyz` point-cloud reader (viewer/layers/points/parse-xyz.ts). */
import { describe, expect, it } from 'vitest';
import { parseXyz } from '../../viewer/layers/points/parse-xyz.ts';
import { linearColors } from '../../viewer/layers/mesh/mesh-object.ts';
import { rareColoursLast } from '../../viewer/layers/points/points-object.ts';

describe('parseXyz', () => {
  it('reads positions and byte colours, skipping comments and blank lines', () => {
    const cloud = parseXyz('# stars\n0 0 0 255 110 170\n\n1.5 -2 3 10 20 30\n');
    expect([...cloud.points]).toEqual([0, 0, 0, 1.5, -2, 3]);
    expect(cloud.colors).toBeInstanceOf(Uint8Array);
    expect([...cloud.colors!]).toEqual([255, 110, 170, 10, 20, 30]);
    expect(cloud.scalars).toBeNull();
  });

  it('reads a fourth column as scalars, and commas as separators', () => {
    const cloud = parseXyz('0,0,0,5\n1,1,1,7\n');
    expect([...cloud.scalars!]).toEqual([5, 7]);
    expect(cloud.colors).toBeNull();
  });

  it('keeps 0..1 colours as floats and skips lines that are not points', () => {
    const cloud = parseXyz('x y z r g b\n0 0 0 1 0.5 0\n');
    expect(cloud.points.length).toBe(3);
    expect([...cloud.colors!]).toEqual([1, 0.5, 0]);
  });
});

describe('linearColors', () => {
  it('turns sRGB bytes into linear light, keeping pink pink', () => {
    const [r, g, b] = linearColors(Uint8Array.from([255, 110, 170]));
    expect(r).toBeCloseTo(1, 5);
    expect(g!).toBeLessThan(b!);
    expect(b!).toBeLessThan(r!);
    expect(g).toBeCloseTo(0.1559, 3);
  });
});

describe('rareColoursLast', () => {
  it('draws the rarest colours last, keeping each point with its colour and scalar', () => {
    const cloud = rareColoursLast({
      type: 'point_cloud',
      points: Float32Array.from([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]),
      colors: Uint8Array.from([110, 160, 255, 255, 110, 170, 110, 160, 255, 110, 160, 255]),
      scalars: Float32Array.from([10, 11, 12, 13]),
    });
    expect([...cloud.points.slice(9)]).toEqual([1, 1, 1]);
    expect([...cloud.colors!.slice(9)]).toEqual([255, 110, 170]);
    expect([...cloud.scalars!]).toEqual([10, 12, 13, 11]);
  });
});
