/**
 * @module stable-json
 * JSON with object keys sorted at every level, so equal values give equal text whatever their
 * key order: the cache key hashes it, and the viewer compares a room's parameters and view
 * settings with it. Pure (no Node module), so the browser bundles share it.
 */

export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record).sort().map((k) => `${JSON.stringify(k)}:${stableJson(record[k])}`).join(',')}}`;
}
