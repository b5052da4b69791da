/**
 * @module query-values-memo
 * The checked values of recent `params` query texts, per parameter schema. The peers of a
 * room ask for the same few parameter sets over and over; without this every cache hit would
 * parse the same text, check it, fill in the same defaults and hash the result again.
 *
 * Values handed out are shared by every request that sent the same text, so they are frozen
 * (deeply): nothing downstream can change what the next request gets, and the parameter hash
 * can be remembered per object (params-hash.ts). A text that fails its check is not kept: the
 * next request with it is refused again by the same check.
 */

type Values = Record<string, unknown>;

/** Texts remembered per schema; the map starts over when full. */
const MAX_TEXTS_PER_SCHEMA = 256;
/** Longer texts are checked each time (they are rare, and keeping them would cost memory). */
const MAX_TEXT_LENGTH = 1024;

/** Keyed by the schema object: a reloaded plugin or a changed specimen.json brings a new one. */
const bySchema = new WeakMap<object, Map<string, Values>>();

/** Freezes a JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * The values `check` makes of `text` under `schema`, made once per text and frozen.
 * `text` is the raw query value (absent and empty are the same: no parameters).
 */
export function memoizedQueryValues(schema: object, text: string | undefined, check: () => Values): Values {
  const key = text ?? '';
  if (key.length > MAX_TEXT_LENGTH) return check();
  let texts = bySchema.get(schema);
  const known = texts?.get(key);
  if (known) return known;
  const values = deepFreeze(check());
  if (!texts) bySchema.set(schema, (texts = new Map()));
  if (texts.size >= MAX_TEXTS_PER_SCHEMA) texts.clear();
  texts.set(key, values);
  return values;
}
