/**
 * @module gray-scott
 * The Gray-Scott reaction-diffusion model on a periodic square grid: U + 2V → 3V, V decays,
 * U is fed in. Explicit Euler with a 9-point Laplacian (dt = 1, Du = 1, Dv = 0.5, as in Karl
 * Sims' well-known explorations).
 */
import { seededRandom } from '../shared/seeded-random.ts';

/** Feed and kill rates that give the named patterns. */
export const PRESETS = {
  coral: { feed: 0.0545, kill: 0.062 },
  mitosis: { feed: 0.0367, kill: 0.0649 },
  maze: { feed: 0.029, kill: 0.057 },
  worms: { feed: 0.078, kill: 0.061 },
} as const;

/** A pattern name. */
export type PresetName = keyof typeof PRESETS;

/** The two concentration fields and their double buffers. */
export interface GrayScottState {
  size: number;
  u: Float32Array;
  v: Float32Array;
  nextU: Float32Array;
  nextV: Float32Array;
}

/** U = 1 everywhere except a few seeded squares where V has been dropped in. */
export function seedState(size: number, seed: number): GrayScottState {
  const random = seededRandom(seed);
  const u = new Float32Array(size * size).fill(1);
  const v = new Float32Array(size * size);
  const drops = 6 + Math.floor(random() * 6);
  for (let d = 0; d < drops; d++) {
    const cx = Math.floor(random() * size), cy = Math.floor(random() * size);
    const half = Math.max(2, Math.floor(size / 24));
    for (let y = cy - half; y <= cy + half; y++) {
      for (let x = cx - half; x <= cx + half; x++) {
        const i = ((y + size) % size) * size + ((x + size) % size);
        u[i] = 0.5 + 0.1 * random();
        v[i] = 0.25 + 0.1 * random();
      }
    }
  }
  return { size, u, v, nextU: new Float32Array(size * size), nextV: new Float32Array(size * size) };
}

/** Advances the state by `iterations` Euler steps with the given feed and kill rates. */
export function advance(state: GrayScottState, iterations: number, feed: number, kill: number): void {
  const n = state.size;
  for (let it = 0; it < iterations; it++) {
    const { u, v, nextU, nextV } = state;
    for (let y = 0; y < n; y++) {
      const up = ((y + n - 1) % n) * n, row = y * n, down = ((y + 1) % n) * n;
      for (let x = 0; x < n; x++) {
        const left = x === 0 ? n - 1 : x - 1, right = x === n - 1 ? 0 : x + 1;
        const i = row + x;
        const ui = u[i]!, vi = v[i]!;
        const lapU = 0.2 * (u[up + x]! + u[down + x]! + u[row + left]! + u[row + right]!)
          + 0.05 * (u[up + left]! + u[up + right]! + u[down + left]! + u[down + right]!) - ui;
        const lapV = 0.2 * (v[up + x]! + v[down + x]! + v[row + left]! + v[row + right]!)
          + 0.05 * (v[up + left]! + v[up + right]! + v[down + left]! + v[down + right]!) - vi;
        const reaction = ui * vi * vi;
        nextU[i] = ui + lapU - reaction + feed * (1 - ui);
        nextV[i] = vi + 0.5 * lapV + reaction - (kill + feed) * vi;
      }
    }
    state.u = nextU; state.nextU = u;
    state.v = nextV; state.nextV = v;
  }
}
