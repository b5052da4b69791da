/**
 * @module cors-origins
 * What `--cors-origin` says, read once: whether any page may read (`*`) and which origins are
 * listed by name. Only listed origins may write from a browser; `*` lists none, and `none`
 * (or an empty value) allows no page at all.
 */

export interface CorsOrigins {
  /** `*` was given: any page may read the host's answers. */
  readonly anyReader: boolean;
  /** Origins named in the list (normalized with {@link normalizeOrigin}). */
  readonly listed: ReadonlySet<string>;
}

/** `scheme://host[:port]` in lower case without a default port; null when not an http(s) origin. */
export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

export function parseCorsOrigins(value: string): CorsOrigins {
  const items = value.trim() === 'none' ? [] : value.split(',').map((o) => o.trim()).filter(Boolean);
  // `*` is no origin (normalizeOrigin gives null for it, as for anything but an http(s) origin).
  const listed = new Set(items.map(normalizeOrigin).filter((origin): origin is string => origin !== null));
  return { anyReader: items.includes('*'), listed };
}

/** Whether the request's `Origin` header names a listed origin. */
export function isListedOrigin(origins: CorsOrigins, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  const normalized = normalizeOrigin(origin);
  return normalized !== null && origins.listed.has(normalized);
}
