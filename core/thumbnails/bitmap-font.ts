/**
 * @module bitmap-font
 * A 5 × 7 pixel font for the few words a picture writes (a scale bar's length and unit, a
 * mark's label and measurement), drawn at a whole-number scale so it stays crisp. A character
 * the font lacks is drawn as a hollow box, so a label never silently loses a letter.
 */
import type { Canvas } from './canvas.ts';

/** Glyph rows, top first, each row's five pixels as one base-32 digit (high bit on the left). */
const GLYPHS: Record<string, string> = {
  0: 'ehjlphe', 1: '4c4444e', 2: 'eh1248v', 3: 'v2421he', 4: '26aiv22', 5: 'vgu11he', 6: '68guhhe', 7: 'v124888', 8: 'ehhehhe', 9: 'ehhf12c',
  a: '00e1fhf', b: 'ggmphhu', c: '00egghe', d: '11djhhf', e: '00ehvge', f: '698s888', g: '0fhhf1e', h: 'ggmphhh', i: '40c444e', j: '20622ic',
  k: 'ggikoki', l: 'c44444e', m: '00qllhh', n: '00mphhh', o: '00ehhhe', p: '00uhugg', q: '00djf11', r: '00mpggg', s: '00fge1u', t: '88s8896',
  u: '00hhhjd', v: '00hhha4', w: '00hhlla', x: '00ha4ah', y: '00hhf1e', z: '00v248v', A: 'ehhvhhh', B: 'uhhuhhu', C: 'ehggghe', D: 'sihhhis',
  E: 'vgguggv', F: 'vgguggg', G: 'ehgnhhf', H: 'hhhvhhh', I: 'e44444e', J: '72222ic', K: 'hikokih', L: 'ggggggv', M: 'hrllhhh', N: 'hhpljhh',
  O: 'ehhhhhe', P: 'uhhuggg', Q: 'ehhhlid', R: 'uhhukih', S: 'fgge11u', T: 'v444444', U: 'hhhhhhe', V: 'hhhhha4', W: 'hhhllla', X: 'hha4ahh',
  Y: 'hha4444', Z: 'v1248gv', '.': '00000cc', ',': '0000c48', '-': '000v000', '+': '044v440', '·': '0004000', 'µ': '00hhhrk', '³': 's4c4s00',
  '²': 'ci48u00', '(': '2488842', ')': '8422248', '/': '01248g0', ':': '0cc0cc0', '_': '000000v', '%': 'op248j3', '\'': '4480000', '?': 'eh12404',
  'Å': '40ehvhh',
};

const MISSING = 'vhhhhhv';
const DIGITS = '0123456789abcdefghijklmnopqrstuv';

/** A glyph's size in font pixels, with the one column of space after it. */
export const GLYPH = { width: 5, height: 7, advance: 6 } as const;

/** How wide `text` is drawn at `scale`, in canvas pixels. */
export function textWidth(text: string, scale: number): number {
  return Math.max(0, [...text].length * GLYPH.advance - 1) * scale;
}

/**
 * Writes `text` with its top-left corner at (`x`, `y`) in `colour` (0..1 RGB), each font pixel
 * a `scale` × `scale` block; what falls outside the canvas is dropped.
 */
export function drawText(canvas: Canvas, text: string, x: number, y: number, colour: readonly number[], scale: number): void {
  let left = Math.round(x);
  const top = Math.round(y);
  for (const char of text) {
    const rows = GLYPHS[char] ?? (char === ' ' ? '0000000' : MISSING);
    for (let row = 0; row < GLYPH.height; row++) {
      const bits = DIGITS.indexOf(rows[row]!);
      for (let column = 0; column < GLYPH.width; column++) {
        if (!(bits & (16 >> column))) continue;
        fillBlock(canvas, left + column * scale, top + row * scale, scale, colour);
      }
    }
    left += GLYPH.advance * scale;
  }
}

function fillBlock(canvas: Canvas, x0: number, y0: number, scale: number, colour: readonly number[]): void {
  for (let y = Math.max(0, y0); y < Math.min(canvas.height, y0 + scale); y++) {
    for (let x = Math.max(0, x0); x < Math.min(canvas.width, x0 + scale); x++) canvas.rgb.set(colour.slice(0, 3), (y * canvas.width + x) * 3);
  }
}
