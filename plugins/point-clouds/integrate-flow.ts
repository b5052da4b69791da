/**
 * @module integrate-flow
 * Samples one long trajectory of an autonomous ODE dx/dt = f(x) with classic fourth-order
 * Runge-Kutta, skipping the initial transient so every stored point lies on the attractor.
 */

/** Writes dx/dt at `p` into `out`. */
export type Flow = (p: Float64Array, out: Float64Array) => void;

/** Positions and speeds along the trajectory. */
export interface Trajectory {
  points: Float32Array;
  /** |dx/dt| at each point. */
  speeds: Float32Array;
}

/**
 * Integrates `flow` from `start`, discards `transient` steps, then stores `count` points, one
 * every `stride` steps of size `dt`.
 */
export function integrateFlow(flow: Flow, start: [number, number, number], count: number, dt: number, stride = 1, transient = 2000): Trajectory {
  const p = Float64Array.from(start);
  const k1 = new Float64Array(3), k2 = new Float64Array(3), k3 = new Float64Array(3), k4 = new Float64Array(3);
  const tmp = new Float64Array(3);
  const step = (): void => {
    flow(p, k1);
    for (let i = 0; i < 3; i++) tmp[i] = p[i]! + (dt / 2) * k1[i]!;
    flow(tmp, k2);
    for (let i = 0; i < 3; i++) tmp[i] = p[i]! + (dt / 2) * k2[i]!;
    flow(tmp, k3);
    for (let i = 0; i < 3; i++) tmp[i] = p[i]! + dt * k3[i]!;
    flow(tmp, k4);
    for (let i = 0; i < 3; i++) p[i] = p[i]! + (dt / 6) * (k1[i]! + 2 * k2[i]! + 2 * k3[i]! + k4[i]!);
  };
  for (let s = 0; s < transient; s++) step();
  const points = new Float32Array(count * 3);
  const speeds = new Float32Array(count);
  for (let n = 0; n < count; n++) {
    for (let s = 0; s < stride; s++) step();
    points[n * 3] = p[0]!;
    points[n * 3 + 1] = p[1]!;
    points[n * 3 + 2] = p[2]!;
    flow(p, k1);
    speeds[n] = Math.hypot(k1[0]!, k1[1]!, k1[2]!);
  }
  return { points, speeds };
}
