/**
 * @module data-uri
 * Decodes `data:` URIs (RFC 2397) in their base64 and percent-encoded forms, strictly: a
 * malformed URI is rejected rather than half decoded.
 */

export interface DecodedDataUri {
  /** Lower-case media type without parameters (`image/png`), or null when the URI states none. */
  mediaType: string | null;
  bytes: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Percent-decodes into bytes; null on a `%` not followed by two hex digits. */
function percentDecode(text: string): Buffer | null {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      out.push(parseInt(hex, 16));
      i += 2;
    } else {
      const code = text.codePointAt(i)!;
      if (code < 0x80) out.push(code);
      else {
        const char = String.fromCodePoint(code);
        out.push(...Buffer.from(char, 'utf8'));
        i += char.length - 1;
      }
    }
  }
  return Buffer.from(out);
}

function decodeBase64(text: string): Buffer | null {
  // Line breaks and spaces are tolerated (long URIs get wrapped); anything else is not.
  const compact = text.replace(/[\s]+/g, '');
  if (!BASE64.test(compact)) return null;
  const unpadded = compact.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  if (compact.length !== unpadded.length && compact.length % 4 !== 0) return null;
  return Buffer.from(unpadded, 'base64');
}

/**
 * Decodes `uri`, or answers null when it is not a well-formed data URI.
 * @example parseDataUri('data:image/png;base64,iVBORw0KGgo=')?.mediaType // 'image/png'
 */
export function parseDataUri(uri: string): DecodedDataUri | null {
  if (typeof uri !== 'string' || !/^data:/i.test(uri)) return null;
  const comma = uri.indexOf(',');
  if (comma < 0) return null;
  const params = uri.slice(5, comma).split(';').map((p) => p.trim());
  const isBase64 = params.length > 1 && params[params.length - 1]!.toLowerCase() === 'base64';
  const type = params[0]!.toLowerCase();
  if (type !== '' && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return null;
  const payload = uri.slice(comma + 1);
  let bytes: Buffer | null;
  if (isBase64) {
    // A base64 payload may itself be percent-encoded (`%2B` for `+`) when embedded in URLs.
    const text = payload.includes('%') ? percentDecode(payload)?.toString('latin1') : payload;
    bytes = text === undefined ? null : decodeBase64(text);
  } else {
    bytes = percentDecode(payload);
  }
  return bytes === null ? null : { mediaType: type === '' ? null : type, bytes };
}
