/**
 * @module picture-body
 * A model request's pictures put into its body at the wire, as bytes: the client library is given
 * a short placeholder where each picture's base64 goes, builds and serialises its (now small)
 * request as it always does, and the `fetch` it was given sends that body as a stream of its
 * length, each placeholder replaced by its picture's base64, made straight from the picture in
 * pieces as the connection takes them. Given the base64 itself, the library would make one string
 * of the whole body, the fetch would check it for unpaired surrogates and encode it to UTF-8;
 * given the whole body as one buffer, fetch would copy it twice more before sending. Each pass
 * over a 4 MiB screenshot's 5.6 MB, and the garbage collections those buffers bring, costs more
 * than the sending; in a few pieces nothing as large as the body is made, and the first bytes
 * leave at once.
 */
import { randomBytes } from 'node:crypto';

/** Marks a placeholder: random per process, so no words of a conversation can look like one. */
const MARK = `picture-${randomBytes(9).toString('base64url')}-`;
const PLACEHOLDER = new RegExp(`${MARK}(\\d+)`, 'g');
/**
 * Bytes of a picture encoded at once: a multiple of 3 (no padding within). Each piece is a turn
 * through the web stream and the HTTP client's writer; a 4 MiB screenshot in three pieces of
 * 2 MiB of base64 reached the model's server 34-37 ms after its frame (the provider's own client
 * alone: 33-37 ms), in 86 pieces of 64 KiB 48-64 ms.
 */
const PIECE = 3 * 512 * 1024;

/** A picture's base64 as a request's messages carry it: the text itself, or a placeholder for it. */
export type Base64 = (bytes: Buffer) => string;

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

  /** The body with each placeholder's picture in it, as its UTF-8 length and pieces; `body` itself when it has none. */
  fill(body: string): string | FilledBody {
    const parts = body.split(PLACEHOLDER);
    if (parts.length === 1) return body;
    // split() with a capture group: the text around the placeholders at even places, their numbers at odd ones.
    const pictures = parts.map((part, i) => (i % 2 === 1 ? this.#held.get(Number(part)) : undefined));
    const length = parts.reduce((sum, part, i) => sum + (i % 2 === 0 ? Buffer.byteLength(part) : base64Length(pictures[i], part)), 0);
    return { length, pieces: () => pieces(parts, pictures) };
  }
}

/** A body whose pictures are filled in: its length in bytes, and its bytes in order, piece by piece. */
export interface FilledBody {
  length: number;
  pieces(): Iterator<Buffer>;
}

function* pieces(parts: string[], pictures: (Buffer | undefined)[]): Generator<Buffer> {
  for (const [i, part] of parts.entries()) {
    const picture = pictures[i];
    if (i % 2 === 0 || !picture) yield Buffer.from(i % 2 === 0 ? part : `${MARK}${part}`);
    else for (let from = 0; from < picture.length; from += PIECE) yield Buffer.from(picture.toString('base64', from, from + PIECE), 'latin1');
  }
}

function base64Length(picture: Buffer | undefined, number: string): number {
  // A number no request holds (never made here) is left as it was written.
  return picture ? 4 * Math.ceil(picture.length / 3) : Buffer.byteLength(`${MARK}${number}`);
}

/** A `fetch` for a client library: a body carrying placeholders streams out with their pictures in it. */
export function pictureFetch(slots: PictureSlots, inner: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const filled = typeof init?.body === 'string' ? slots.fill(init.body) : null;
    if (filled === null || typeof filled === 'string') return inner(input, init);
    const next = filled.pieces();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const piece = next.next();
        if (piece.done) controller.close();
        else controller.enqueue(piece.value);
      },
    });
    // A stream has no length of its own: given, the request goes out whole rather than chunked.
    const headers = new Headers(init!.headers);
    headers.set('content-length', String(filled.length));
    return inner(input, { ...init, body, headers, duplex: 'half' } as RequestInit);
  };
}
