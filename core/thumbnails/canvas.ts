/**
 * @module canvas
 * A floating-point RGB canvas with the shared dark gradient backdrop, box-filter
 * downsampling (used for supersampled anti-aliasing) and conversion to 8-bit bytes.
 */

/** Linear-ish RGB in 0..1, row-major. */
export interface Canvas {
  width: number;
  height: number;
  rgb: Float32Array;
  /**
   * How far behind the camera's centre plane each pixel's drawn surface lies (room units along
   * the view; Infinity where nothing with a depth was drawn), for the renderers of a room's
   * picture that draw surfaces: a later layer is hidden where an earlier one lies in front.
   */
  depth?: Float32Array;
}

/** A canvas filled with the thumbnail backdrop: a dark blue-grey vertical gradient with a soft vignette. */
export function createBackdrop(width: number, height: number): Canvas {
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const t = y / (height - 1);
    for (let x = 0; x < width; x++) {
      const dx = x / (width - 1) - 0.5, dy = t - 0.45;
      const vignette = 1 - 0.55 * Math.min(1, (dx * dx + dy * dy) * 2.2);
      const i = (y * width + x) * 3;
      rgb[i] = (0.11 - 0.07 * t) * vignette;
      rgb[i + 1] = (0.13 - 0.08 * t) * vignette;
      rgb[i + 2] = (0.19 - 0.11 * t) * vignette;
    }
  }
  return { width, height, rgb };
}

/** The nearest depth of each `factor` × `factor` block of `depth` (a supersampled canvas's, `side` pixels a side). */
export function downsampleDepth(depth: Float32Array, side: number, factor: number): Float32Array {
  if (factor === 1) return depth;
  const out = new Float32Array((side / factor) ** 2).fill(Infinity);
  const outSide = side / factor;
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const o = Math.floor(y / factor) * outSide + Math.floor(x / factor);
      const d = depth[y * side + x]!;
      if (d < out[o]!) out[o] = d;
    }
  }
  return out;
}

/** Past this many pixels a side, a supersampled canvas is sampled less finely (its memory grows as the square). */
const MAX_SUPERSAMPLED_SIDE = 1536;

/** The supersampling factor for a `size` canvas: `wanted`, less for a large one, at least 1. */
export function supersampling(size: number, wanted: number): number {
  return Math.max(1, Math.min(wanted, Math.floor(MAX_SUPERSAMPLED_SIDE / size)));
}

/** Averages `factor` × `factor` blocks: a supersampled canvas down to its final size. */
export function downsample(source: Canvas, factor: number): Canvas {
  const width = Math.floor(source.width / factor);
  const height = Math.floor(source.height / factor);
  const rgb = new Float32Array(width * height * 3);
  const norm = 1 / (factor * factor);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0, g = 0, b = 0;
      for (let sy = 0; sy < factor; sy++) {
        for (let sx = 0; sx < factor; sx++) {
          const i = ((y * factor + sy) * source.width + x * factor + sx) * 3;
          r += source.rgb[i]!;
          g += source.rgb[i + 1]!;
          b += source.rgb[i + 2]!;
        }
      }
      const o = (y * width + x) * 3;
      rgb[o] = r * norm;
      rgb[o + 1] = g * norm;
      rgb[o + 2] = b * norm;
    }
  }
  return { width, height, rgb };
}

/** The centre `width` × `height` of `canvas` (each at most its own). */
export function cropCentre(canvas: Canvas, width: number, height: number): Canvas {
  if (width === canvas.width && height === canvas.height) return canvas;
  const x0 = Math.floor((canvas.width - width) / 2), y0 = Math.floor((canvas.height - height) / 2);
  const rgb = new Float32Array(width * height * 3);
  for (let y = 0; y < height; y++) rgb.set(canvas.rgb.subarray(((y + y0) * canvas.width + x0) * 3, ((y + y0) * canvas.width + x0 + width) * 3), y * width * 3);
  return { width, height, rgb };
}

/**
 * `square` (drawn on its own backdrop, `bare` where nothing is drawn) centred on a fresh
 * `width` × `height` backdrop (what lies outside it cut off): what the square drew is kept,
 * its bare backdrop gives way to the fresh one, so no seam shows where the square ends.
 */
export function placeCentred(square: Canvas, bare: Canvas, width: number, height: number): Canvas {
  const wide = createBackdrop(width, height);
  const x0 = Math.floor((width - square.width) / 2), y0 = Math.floor((height - square.height) / 2);
  for (let y = Math.max(0, -y0); y < Math.min(square.height, height - y0); y++) {
    for (let x = Math.max(0, -x0); x < Math.min(square.width, width - x0); x++) {
      const i = (y * square.width + x) * 3;
      if (square.rgb[i] === bare.rgb[i] && square.rgb[i + 1] === bare.rgb[i + 1] && square.rgb[i + 2] === bare.rgb[i + 2]) continue;
      wide.rgb.set(square.rgb.subarray(i, i + 3), ((y + y0) * width + x + x0) * 3);
    }
  }
  return wide;
}

/** Clamps to 0..1, applies a display gamma and returns RGB bytes. */
export function toBytes(canvas: Canvas, gamma = 1 / 1.0): Uint8Array {
  const out = new Uint8Array(canvas.rgb.length);
  for (let i = 0; i < out.length; i++) {
    const v = Math.min(1, Math.max(0, canvas.rgb[i]!));
    out[i] = Math.round(v ** gamma * 255);
  }
  return out;
}
