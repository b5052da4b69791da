/**
 * @module params-hash
 * The cache key: function name plus a hash of the checked parameters with defaults filled in,
 * written with sorted keys so that key order in the request never matters.
 * `{}` and the explicit defaults are the same key on /invoke, /data and /start.
 */
import { hash } from 'node:crypto';

/** JSON with object keys sorted at every level. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function hashParams(params: Record<string, unknown>): string {
  // The one-shot digest: no Hash object per call (a cache hit computes its key every time).
  return hash('sha256', stableStringify(params), 'hex').slice(0, 32);
}

/** `<function>:<hash>`: one room cache key. */
export function cacheKey(functionName: string, params: Record<string, unknown>): string {
  return `${functionName}:${hashParams(params)}`;
}
