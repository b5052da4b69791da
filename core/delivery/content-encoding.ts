/**
 * @module content-encoding
 * Which compressed variant a request can take, from its Accept-Encoding: br or gzip (br when
 * both are acceptable, for its smaller bytes; a variant is made once, so its cost is paid once).
 */

export type ContentEncoding = 'br' | 'gzip';

/** Quality values by coding name (lower case); `*` included when given. */
function qualities(header: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...params] = item.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q' && value !== undefined && Number.isFinite(Number(value))) q = Number(value);
    }
    out.set(name.trim(), q);
  }
  return out;
}

/** The encoding to answer with, or null for identity bytes. */
export function chooseEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | null {
  if (acceptEncoding === undefined) return null;
  const q = qualities(Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding);
  const star = q.get('*') ?? 0;
  for (const name of ['br', 'gzip'] as const) {
    if ((q.get(name) ?? star) > 0) return name;
  }
  return null;
}
