/**
 * @module parse-params
 * Reads the `params` of a request: the GET query string (JSON text) or a POST body field.
 * Not JSON, or JSON but not an object: 400.
 */
import { createHostError } from '../errors.ts';

/** How a refused value is named in an error: `null`, `an array`, `a number`, ... */
export function describeJsonValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/** Checks that an already-parsed value is a plain JSON object (absent means `{}`). */
export function expectParamsObject(value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw createHostError('SPC_ERR_PARAMS_NOT_OBJECT', describeJsonValue(value));
  }
  return value as Record<string, unknown>;
}

/**
 * Parses the `params` query value (one string: the route's query schema refuses a repeated
 * one); an absent or empty one means `{}`.
 */
export function parseParamsQuery(raw: string | undefined, maxLength: number): Record<string, unknown> {
  if (raw === undefined || raw === '') return {};
  if (raw.length > maxLength) throw createHostError('SPC_ERR_PARAMS_TOO_LARGE', String(maxLength));
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw createHostError('SPC_ERR_PARAMS_NOT_JSON', (error as Error).message);
  }
  return expectParamsObject(value);
}
