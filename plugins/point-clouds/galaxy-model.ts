/**
 * @module galaxy-model
 * A toy disc galaxy: an old, warm central bulge plus stars strewn along logarithmic spiral
 * arms, young and blue on the arms, older and yellower between them, with a sprinkle of pink
 * star-forming regions. Distances in units of the disc radius (about 15 kpc); y is up.
 */
import { seededRandom } from '../shared/seeded-random.ts';

/** Shape of the galaxy. */
export interface GalaxyShape {
  stars: number;
  arms: number;
  /** Pitch angle of the spiral arms, degrees (small = tightly wound). */
  pitchDegrees: number;
  /** Fraction of stars in the bulge. */
  bulge: number;
  seed: number;
}

/** Star positions, colours (bytes) and surface temperatures (kelvin). */
export interface GalaxyStars {
  points: Float32Array;
  colors: Uint8Array;
  temperatures: Float32Array;
}

/** Populates the galaxy, deterministically for a given seed. */
export function populateGalaxy(shape: GalaxyShape): GalaxyStars {
  const random = seededRandom(shape.seed);
  const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const { stars, arms } = shape;
  const points = new Float32Array(stars * 3);
  const colors = new Uint8Array(stars * 3);
  const temperatures = new Float32Array(stars);
  const tanPitch = Math.tan((shape.pitchDegrees * Math.PI) / 180);
  const put = (i: number, x: number, y: number, z: number, temperature: number, rgb: readonly number[]): void => {
    points[i * 3] = x; points[i * 3 + 1] = y; points[i * 3 + 2] = z;
    temperatures[i] = temperature;
    // Brightness jitter so the cloud does not look like flat paint.
    const shade = 0.65 + 0.35 * random();
    for (let k = 0; k < 3; k++) colors[i * 3 + k] = Math.min(255, rgb[k]! * shade);
  };
  for (let i = 0; i < stars; i++) {
    if (random() < shape.bulge) {
      const r = 0.12 * Math.abs(gaussian());
      put(i, r * gaussian() * 0.8, r * gaussian() * 0.5, r * gaussian() * 0.8, 3800 + 1500 * random(), [255, 200, 140]);
      continue;
    }
    // Exponential disc: radius density ∝ e^(-r / 0.3), capped at the disc edge.
    const r = Math.min(1.1, 0.05 - 0.3 * Math.log(1 - random() * 0.97));
    const arm = Math.floor(random() * arms);
    const spiral = Math.log(r / 0.05) / tanPitch;
    const scatter = gaussian() * (0.12 + 0.25 * random() ** 3);
    const onArm = Math.abs(scatter) < 0.13;
    const theta = (arm / arms) * 2 * Math.PI + spiral + scatter;
    const thickness = 0.015 * (1 + r) * gaussian();
    const young = onArm && random() < 0.7;
    const nursery = onArm && random() < 0.015;
    const temperature = nursery ? 12000 : young ? 8000 + 14000 * random() : 3500 + 3000 * random();
    const rgb = nursery ? [255, 110, 170] : young ? [110, 160, 255] : [255, 215, 170];
    put(i, r * Math.cos(theta), thickness, r * Math.sin(theta), temperature, rgb);
  }
  return { points, colors, temperatures };
}
