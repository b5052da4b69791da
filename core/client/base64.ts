/**
 * @module base64
 * Base64 to bytes without Node's Buffer, so the client runs in browsers too. `atob` is in both
 * (Node ≥ 16) but slow for megabytes and produces a binary string; this decoder writes straight
 * into a byte array whose buffer is 8-byte aligned, so any typed array view fits on it.
 */

const LOOKUP = new Uint8Array(128).fill(255);
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
for (let i = 0; i < ALPHABET.length; i++) LOOKUP[ALPHABET.charCodeAt(i)] = i;
// URL-safe variants decode too.
LOOKUP['-'.charCodeAt(0)] = 62;
LOOKUP['_'.charCodeAt(0)] = 63;

/**
 * Decodes standard or URL-safe base64 (padding optional, whitespace ignored).
 * @throws TypeError on a character outside the alphabet or an impossible length.
 */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/[\s=]+/g, '');
  if (clean.length % 4 === 1) throw new TypeError('invalid base64: impossible length');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const code = clean.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : 255;
    if (v === 255) throw new TypeError(`invalid base64 character at ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
