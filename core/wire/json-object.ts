/**
 * @module json-object
 * Whether a value read from JSON is an object with keys (not null, not an array): the first
 * check of every body, document and stored record the host reads before it looks at its fields.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
