/**
 * @module content-disposition
 * `Content-Disposition` values for downloads (RFC 6266): a quoted ASCII `filename` every client
 * understands, plus `filename*` (RFC 8187) when the name is not plain ASCII.
 */

/** Printable ASCII with quotes and backslashes escaped; anything else becomes `_`. */
function asciiFallback(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, (c) => `\\${c}`);
}

/** RFC 8187 value-chars: attr-char as is, every other UTF-8 byte percent-encoded. */
function extValue(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `attachment; filename="<name>"`, with `; filename*=UTF-8''<encoded>` added when `name`
 * holds characters outside printable ASCII.
 * @example contentDisposition('knot.glb') // 'attachment; filename="knot.glb"'
 */
export function contentDisposition(name: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const plain = /^[\x20-\x7e]*$/.test(name);
  const base = `${type}; filename="${asciiFallback(name)}"`;
  return plain ? base : `${base}; filename*=UTF-8''${extValue(name)}`;
}
