/**
 * @module picture-body.test
 * A model request's pictures filled in at the wire: the body a client library serialised with
 * placeholders goes out as the very bytes of the body it would have made with the base64 in it,
 * whatever the pictures' sizes (across the pieces they are encoded in), however many, beside
 * text that is not ASCII; a body without placeholders goes as it was; a released request's
 * placeholders are no longer filled. The agent's tests carry pictures through both providers'
 * official clients to a scripted server; this file reaches the sizes those do not.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { pictureFetch, PictureSlots, type FilledBody } from '../../core/agent/model/picture-body.ts';

/** A filled body's pieces, put together. */
function whole(filled: string | FilledBody): Buffer {
  if (typeof filled === 'string') return Buffer.from(filled);
  const pieces: Buffer[] = [];
  for (let next = filled.pieces(), piece = next.next(); !piece.done; piece = next.next()) pieces.push(piece.value);
  const bytes = Buffer.concat(pieces);
  expect(bytes.length).toBe(filled.length);
  return bytes;
}

/** Bytes that are not all one value, so a piece out of place would show. */
const picture = (length: number) => Buffer.from(Array.from({ length }, (_, i) => (i * 31 + 7) % 256));

describe('a request body with its pictures filled in at the wire', () => {
  it('is byte for byte the body made with the base64 itself', () => {
    const slots = new PictureSlots();
    const request = slots.request();
    const pictures = [0, 1, 2, 3, 4, 3 * 16 * 1024 - 1, 3 * 16 * 1024, 3 * 16 * 1024 + 1, 200_001].map(picture);
    const shape = (base64: (bytes: Buffer) => string) =>
      JSON.stringify({ said: 'ein Bild, ça — 🖼', images: pictures.map((bytes) => ({ data: base64(bytes), url: `data:image/jpeg;base64,${base64(bytes)}` })) });
    const filled = slots.fill(shape(request.base64));
    expect(typeof filled).toBe('object');
    expect(whole(filled).equals(Buffer.from(shape((bytes) => bytes.toString('base64'))))).toBe(true);
  });

  it('leaves a body without placeholders, and those of a released request, as they are', () => {
    const slots = new PictureSlots();
    expect(slots.fill('{"text":"no picture"}')).toBe('{"text":"no picture"}');
    const request = slots.request();
    const body = JSON.stringify({ data: request.base64(picture(10)) });
    request.release();
    expect(whole(slots.fill(body)).toString()).toBe(body);
  });

  it('sends the filled body through fetch with its length, not chunked, the library\'s headers kept', async () => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      const { 'content-length': length, 'transfer-encoding': chunked, 'x-library': library } = req.headers;
      req.on('end', () => res.end(JSON.stringify({ length, chunked, library, body: Buffer.concat(chunks).toString() })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const slots = new PictureSlots();
      const request = slots.request();
      const bytes = picture(100_000);
      const init = { method: 'POST', headers: { 'x-library': 'yes' }, body: JSON.stringify({ source: { data: request.base64(bytes) } }) };
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const answer = (await (await pictureFetch(slots)(url, init)).json()) as Record<string, string>;
      const expected = JSON.stringify({ source: { data: bytes.toString('base64') } });
      expect(answer).toEqual({ length: String(expected.length), library: 'yes', body: expected });
    } finally {
      server.close();
    }
  });
});
