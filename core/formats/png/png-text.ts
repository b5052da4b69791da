/**
 * @module png-text
 * Text carried inside a PNG: international text chunks (iTXt, UTF-8, uncompressed) placed
 * right after the header, where image tools (exiftool, `identify -verbose`, Pillow's
 * `Image.text`) read them; and the reader that finds them again.
 */
import { crc32 } from 'node:zlib';
import { pngChunk } from './encode-png.ts';

/** Bytes of the signature and the IHDR chunk every PNG starts with. */
const HEADER_END = 8 + 12 + 13;
/** A keyword is 1-79 Latin-1 printable characters, no leading, trailing or double spaces. */
const KEYWORD = /^[\x21-\x7e\xa1-\xff](?:[\x21-\x7e\xa1-\xff]| (?! ))*(?<! )$/;

/** `png` with each of `text` (keyword → UTF-8 text) as an iTXt chunk after its header. */
export function withPngText(png: Uint8Array, text: Readonly<Record<string, string>>): Buffer {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') throw new RangeError('not a PNG: no IHDR chunk first');
  const chunks = Object.entries(text).map(([keyword, value]) => {
    if (keyword.length > 79 || !KEYWORD.test(keyword)) throw new RangeError(`not a PNG text keyword: '${keyword}'`);
    // keyword, NUL, compression flag 0 and method 0, empty language tag and translated keyword (each NUL-ended), the text.
    return pngChunk('iTXt', Buffer.concat([Buffer.from(keyword, 'latin1'), Buffer.from([0, 0, 0, 0, 0]), Buffer.from(value, 'utf8')]));
  });
  return Buffer.concat([bytes.subarray(0, HEADER_END), ...chunks, bytes.subarray(HEADER_END)]);
}

/** The uncompressed iTXt and tEXt chunks of `png`, keyword → text (checked against their CRCs). */
export function readPngText(png: Uint8Array): Record<string, string> {
  const bytes = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const text: Record<string, string> = {};
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('ascii', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) throw new RangeError(`PNG chunk ${type} fails its CRC`);
    const nul = body.indexOf(0);
    if (type === 'tEXt' && nul > 0) text[body.toString('latin1', 0, nul)] = body.toString('latin1', nul + 1);
    if (type === 'iTXt' && nul > 0 && body[nul + 1] === 0) {
      const language = body.indexOf(0, nul + 3);
      const translated = body.indexOf(0, language + 1);
      text[body.toString('latin1', 0, nul)] = body.toString('utf8', translated + 1);
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return text;
}
