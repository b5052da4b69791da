/**
 * @module preamble
 * The envelope header: a little-endian u32 length followed by that many bytes of UTF-8 JSON.
 */

/** Writes the 4-byte length and the JSON preamble into one small buffer. */
export function encodePreamble(preamble: object): Buffer {
  const json = Buffer.from(JSON.stringify(preamble), 'utf8');
  const out = Buffer.allocUnsafe(4 + json.length);
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  return out;
}
