/**
 * @module text-pieces
 * The text mesh writers (OBJ, VTK) write line by line and know their length only as they
 * write it: lines are gathered into pieces of about a mebibyte (so no single string grows
 * huge), and given `maxBytes` the writing stops once the text passes it (OutputTooLarge),
 * holding no more than that. Numbers are written with float32 precision (9 significant digits
 * round-trip a float32 exactly), whole numbers as integers.
 */
import { OutputTooLarge } from './format-error.ts';

/** Lines are gathered in pieces of about this many characters. */
const PIECE = 1 << 20;

/** A coordinate as text: a whole number as it is, else to 9 significant digits. */
export function textNumber(x: number): string {
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(9)));
}

/** ASCII text written a line at a time, at most `maxBytes` of it. */
export class TextPieces {
  readonly #maxBytes: number;
  readonly #pieces: Buffer[] = [];
  #written = 0;
  #text = '';

  constructor(maxBytes = Infinity) {
    this.#maxBytes = maxBytes;
  }

  /** Adds `line` (with its own newline). @throws OutputTooLarge once the text passes the bound. */
  push(line: string): void {
    this.#text += line;
    if (this.#text.length >= PIECE) {
      // The text is ASCII: its length is its bytes.
      this.#written += this.#text.length;
      if (this.#written > this.#maxBytes) throw new OutputTooLarge(this.#written);
      this.#pieces.push(Buffer.from(this.#text, 'utf8'));
      this.#text = '';
    }
  }

  /** The whole text's bytes. @throws OutputTooLarge when it passes the bound. */
  bytes(): Uint8Array {
    const total = this.#written + this.#text.length;
    if (total > this.#maxBytes) throw new OutputTooLarge(total);
    this.#pieces.push(Buffer.from(this.#text, 'utf8'));
    this.#text = '';
    const out = Buffer.concat(this.#pieces);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  }
}
