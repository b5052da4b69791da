/**
 * @module shade-by-radius
 * Per-vertex colours from one picked colour: vertices near the centre (a shape's valleys) get
 * a darker shade of it, the outermost (its tips) the colour itself, so relief reads at a glance.
 */

/** `#rrggbb` as [r, g, b] bytes. */
export function parseHexColor(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/**
 * RGB bytes, three per vertex: the colour scaled from `shadow` (0..1) of itself at the
 * smallest distance from the origin up to all of it at the largest.
 */
export function shadeByRadius(vertices: Float32Array, hex: string, shadow = 0.3): Uint8Array {
  const [r, g, b] = parseHexColor(hex);
  const count = vertices.length / 3;
  const radii = new Float32Array(count);
  let low = Infinity;
  let high = 0;
  for (let i = 0; i < count; i++) {
    const radius = Math.hypot(vertices[3 * i]!, vertices[3 * i + 1]!, vertices[3 * i + 2]!);
    radii[i] = radius;
    low = Math.min(low, radius);
    high = Math.max(high, radius);
  }
  const span = high - low || 1;
  const colors = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) {
    const k = shadow + (1 - shadow) * ((radii[i]! - low) / span);
    colors[3 * i] = Math.round(r * k);
    colors[3 * i + 1] = Math.round(g * k);
    colors[3 * i + 2] = Math.round(b * k);
  }
  return colors;
}
