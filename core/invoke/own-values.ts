/**
 * @module own-values
 * The values a function registered in code runs with are its own: such a function runs on
 * the host's thread, where the checked values are shared (a `params` text's values are frozen
 * and handed to every request that sent it, params/memo.ts; a body's values become the room's
 * state). Each array or object value is copied for the call, so a function that changes one
 * behaves the same whichever route asked, and changes nothing another request sees. The cache
 * key was made from the shared values before. Plain values need no copy, and an input's
 * loaded result is passed as it is (it is a held result, never copied).
 */
import { inputKindOf } from '../wire/input-schema.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';

/** `values`, with a copy of every array or object value that is not a loaded input. */
export function ownValues(entry: FunctionEntry, values: Record<string, unknown>): Record<string, unknown> {
  const properties = (entry.schema.properties ?? {}) as Record<string, unknown>;
  let own: Record<string, unknown> | null = null;
  for (const [name, value] of Object.entries(values)) {
    if (value === null || typeof value !== 'object' || inputKindOf(properties[name]) !== undefined) continue;
    own ??= { ...values };
    own[name] = structuredClone(value);
  }
  return own ?? values;
}
