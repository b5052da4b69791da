/**
 * @module fractal-images
 * Escape-time fractals rendered as uint8 images: the Mandelbrot set (RGB) and a Julia set
 * (RGBA, the filled set itself transparent).
 */
import type { ImageResult, Integer, SpecimenDeclaration } from 'vitrine';
import { paletteColour, type PaletteName } from './cosine-palette.ts';
import { escapeCount, inMandelbrotInterior } from './escape-time.ts';

/**
 * The Mandelbrot set: the points c for which z → z² + c stays bounded from z = 0, coloured by
 * how fast the outside escapes. An RGB uint8 image.
 *
 * @param width Image width in pixels.
 * @param height Image height in pixels.
 * @param center_x Real part of the image centre.
 * @param center_y Imaginary part of the image centre.
 * @param zoom Magnification: 1 shows the whole set.
 * @param max_iterations Iterations before a point counts as inside.
 * @param palette Colour palette.
 * @minimum width 16
 * @maximum width 1024
 * @minimum height 16
 * @maximum height 1024
 * @minimum center_x -2.5
 * @maximum center_x 1.5
 * @minimum center_y -1.5
 * @maximum center_y 1.5
 * @minimum zoom 0.5
 * @maximum zoom 100000
 * @minimum max_iterations 16
 * @maximum max_iterations 2000
 */
export function mandelbrot_set(
  width: Integer = 512,
  height: Integer = 384,
  center_x = -0.65,
  center_y = 0,
  zoom = 1,
  max_iterations: Integer = 300,
  palette: PaletteName = 'ocean',
): ImageResult {
  const data = new Uint8Array(width * height * 3);
  const scale = 3 / (zoom * Math.min(width, height * 4 / 3));
  for (let py = 0; py < height; py++) {
    const cy = center_y + (height / 2 - py - 0.5) * scale;
    for (let px = 0; px < width; px++) {
      const cx = center_x + (px + 0.5 - width / 2) * scale;
      const n = inMandelbrotInterior(cx, cy) ? -1 : escapeCount(0, 0, cx, cy, max_iterations);
      const o = (py * width + px) * 3;
      // Points that escape at once stay dark, so the boundary glows.
      if (n >= 0) paletteColour(palette, Math.sqrt(n) * 0.18, 1 - Math.exp(-n / 10), data, o);
    }
  }
  return { type: 'image', width, height, channels: 3, dtype: 'uint8', data };
}

/**
 * A Julia set: the starting points z that stay bounded under z → z² + c for one fixed c.
 * RGBA uint8: the escaping outside is coloured, the filled Julia set is transparent.
 *
 * @param c_re Real part of the constant c.
 * @param c_im Imaginary part of the constant c.
 * @param size Width and height in pixels.
 * @param zoom Magnification: 1 shows the plane from -1.6 to 1.6.
 * @param max_iterations Iterations before a point counts as inside.
 * @param palette Colour palette.
 * @minimum c_re -2
 * @maximum c_re 2
 * @minimum c_im -2
 * @maximum c_im 2
 * @minimum size 16
 * @maximum size 1024
 * @minimum zoom 0.5
 * @maximum zoom 100000
 * @minimum max_iterations 16
 * @maximum max_iterations 1000
 */
export function julia_set(
  c_re = -0.8,
  c_im = 0.156,
  size: Integer = 512,
  zoom = 1,
  max_iterations: Integer = 300,
  palette: PaletteName = 'electric',
): ImageResult {
  const data = new Uint8Array(size * size * 4);
  const scale = 3.2 / (zoom * size);
  for (let py = 0; py < size; py++) {
    const zy = (size / 2 - py - 0.5) * scale;
    for (let px = 0; px < size; px++) {
      const zx = (px + 0.5 - size / 2) * scale;
      const n = escapeCount(zx, zy, c_re, c_im, max_iterations);
      const o = (py * size + px) * 4;
      if (n < 0) continue; // inside: fully transparent
      paletteColour(palette, Math.sqrt(n) * 0.22, 1 - Math.exp(-n / 8), data, o);
      data[o + 3] = 255;
    }
  }
  return { type: 'image', width: size, height: size, channels: 4, dtype: 'uint8', data };
}

export const specimens: SpecimenDeclaration[] = [
  {
    id: 'mandelbrot-set',
    function: 'mandelbrot_set',
    display_name: 'Mandelbrot set',
    description: 'The Mandelbrot set, coloured by smoothed escape time.',
    tags: ['image', 'fractal', 'mathematics'],
    thumbnail: './thumbnails/mandelbrot-set.png',
    story:
      'Take a number c, start at zero, square and add c, again and again. For some c the values stay small forever; those c form the black shape in the ' +
      'middle, first drawn by Benoit Mandelbrot at IBM in 1980. Its border is infinitely detailed: zoom in anywhere along it and new spirals, seahorses ' +
      'and tiny copies of the whole set keep appearing. The colours show how quickly each outside point runs off to infinity.',
  },
  {
    id: 'julia-set',
    function: 'julia_set',
    display_name: 'Julia set',
    description: 'A Julia set for c = -0.8 + 0.156i, with the filled set left transparent.',
    tags: ['image', 'fractal', 'mathematics', 'rgba'],
    thumbnail: './thumbnails/julia-set.png',
    story:
      'Fix c and ask instead which starting points stay bounded under the same rule, z squared plus c. Gaston Julia and Pierre Fatou studied these sets ' +
      'during the First World War, decades before anyone could draw one. Every point of the Mandelbrot set gives a connected Julia set like this one; ' +
      'step outside it and the Julia set shatters into dust. The inside is transparent here, so the set floats as a lace of pure boundary.',
  },
];
