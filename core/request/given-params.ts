/**
 * @module given-params
 * The forms a request's parameters arrive in, and the checked values each gives under a
 * schema: by name (`params`, `kwargs`) and by position (`args`) from a JSON body, or as the
 * JSON text of GET's `params` query (remembered per text and schema, and then frozen).
 */
import { parseParamsQuery } from '../params/parse-params.ts';
import { memoizedQueryValues } from '../params/query-values-memo.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { valueParameterNames, type FunctionEntry } from '../registry/function-entry.ts';

type Values = Record<string, unknown>;

/** Parameters from a JSON body (`named`, with `positional` ones for /invoke's `args`), or GET's query text. */
export type GivenParams = { named: Values; positional?: unknown[] } | { query: string | undefined };

/** The checked values (defaults filled in) `given` makes for `entry` under `schema`; a 400 names what is wrong. */
export function valuesOf(schema: Values, entry: FunctionEntry, given: GivenParams, maxQueryLength: number): Values {
  if ('query' in given) {
    const named = () => valuesOf(schema, entry, { named: parseParamsQuery(given.query, maxQueryLength) }, maxQueryLength);
    return memoizedQueryValues(schema, given.query, named);
  }
  return resolveParams(schema, valueParameterNames(entry), given, entry.name);
}
