/**
 * @module flow
 * One step of a swirling flow in a flat box: two vortices of opposite turn circling the box's
 * axis, and a wave of updraft travelling up through the middle. Velocities in box units.
 */

/** Writes the three components of step `phase` (0..1 over the run) into `out` (x, then y, then z blocks). */
export function flowStep(out: Float32Array, size: number, depth: number, phase: number): void {
  const voxels = size * size * depth;
  const angle = 2 * Math.PI * phase;
  const vortices = [
    { cx: 0.5 + 0.18 * Math.cos(angle), cy: 0.5 + 0.18 * Math.sin(angle), turn: 1 },
    { cx: 0.5 - 0.18 * Math.cos(angle), cy: 0.5 - 0.18 * Math.sin(angle), turn: -0.7 },
  ];
  let i = 0;
  for (let z = 0; z < depth; z++) {
    const lift = Math.sin(2 * Math.PI * ((z + 0.5) / depth - 2 * phase));
    for (let y = 0; y < size; y++) {
      const py = (y + 0.5) / size;
      for (let x = 0; x < size; x++, i++) {
        const px = (x + 0.5) / size;
        let vx = 0;
        let vy = 0;
        for (const v of vortices) {
          const dx = px - v.cx;
          const dy = py - v.cy;
          const swirl = v.turn * 3 * Math.exp(-(dx * dx + dy * dy) / 0.02);
          vx -= dy * swirl;
          vy += dx * swirl;
        }
        const r2 = (px - 0.5) ** 2 + (py - 0.5) ** 2;
        out[i] = vx;
        out[voxels + i] = vy;
        out[2 * voxels + i] = 0.4 * lift * Math.exp(-r2 / 0.05);
      }
    }
  }
}
