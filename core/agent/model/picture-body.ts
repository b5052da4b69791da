/**
 * @module picture-body
 * A model request's pictures put into its body at the wire, as bytes: the client library is given
 * a short placeholder where each picture's base64 goes, builds and serialises its (now small)
 * request as it always does, and the `fetch` it was given writes that body out once more as
 * bytes, each placeholder replaced by its picture's base64, made straight from the picture in
 * pieces. Given the base64 itself, the library would make one string of the whole body, the
 * fetch would check it for unpaired surrogates and encode it to UTF-8: three passes and some
 * 20 MiB of garbage for a 4 MiB screenshot, several times what the sending takes.
 */
import { randomBytes } from 'node:crypto';

/** Marks a placeholder: random per process, so no words of a conversation can look like one. */
const MARK = `picture-${randomBytes(9).toString('base64url')}-`;
const PLACEHOLDER = new RegExp(`${MARK}(\\d+)`, 'g');
/** Bytes of a picture encoded at once: a multiple of 3 (no padding within), small enough to stay out of the large-object space. */
const PIECE = 3 * 16 * 1024;

/** A picture's base64 as a request's messages carry it: the text itself, or a placeholder for it. */
export type Base64 = (bytes: Buffer) => string;

/** The base64 itself, for a request not sent through {@link pictureFetch}. */
export const plainBase64: Base64 = (bytes) => bytes.toString('base64');

/** The pictures of the requests under way, by placeholder number. */
export class PictureSlots {
  #held = new Map<number, Buffer>();
  #next = 0;

  /** One request's pictures: `base64` stands for a picture in the request; `release` once it is sent. */
  request(): { base64: Base64; release(): void } {
    const mine: number[] = [];
    return {
      base64: (bytes) => {
        const n = ++this.#next;
        this.#held.set(n, bytes);
        mine.push(n);
        return `${MARK}${n}`;
      },
      release: () => {
        for (const n of mine) this.#held.delete(n);
      },
    };
  }

  /** The body with each placeholder's picture in it, as UTF-8 bytes; `body` itself when it has none. */
  fill(body: string): string | Buffer<ArrayBuffer> {
    const parts = body.split(PLACEHOLDER);
    if (parts.length === 1) return body;
    // split() with a capture group: the text around the placeholders at even places, their numbers at odd ones.
    const pictures = parts.map((part, i) => (i % 2 === 1 ? this.#held.get(Number(part)) : undefined));
    const size = parts.reduce((sum, part, i) => sum + (i % 2 === 0 ? Buffer.byteLength(part) : base64Length(pictures[i], part)), 0);
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const [i, part] of parts.entries()) {
      const picture = pictures[i];
      if (i % 2 === 0 || !picture) at += out.write(i % 2 === 0 ? part : `${MARK}${part}`, at);
      else for (let from = 0; from < picture.length; from += PIECE) at += out.write(picture.toString('base64', from, from + PIECE), at, 'latin1');
    }
    return out;
  }
}

function base64Length(picture: Buffer | undefined, number: string): number {
  // A number no request holds (never made here) is left as it was written.
  return picture ? 4 * Math.ceil(picture.length / 3) : Buffer.byteLength(`${MARK}${number}`);
}

/** A `fetch` for a client library: a body carrying placeholders goes out with their pictures in it. */
export function pictureFetch(slots: PictureSlots, inner: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const body = init?.body;
    return inner(input, typeof body === 'string' ? { ...init, body: slots.fill(body) } : init);
  };
}
