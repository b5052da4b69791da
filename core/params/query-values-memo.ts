/**
 * @module query-values-memo
 * The checked values of recent `params` query texts, per parameter schema. The peers of a
 * room ask for the same few parameter sets over and over; without this every cache hit would
 * parse the same text, check it, fill in the same defaults and hash the result again.
 *
 * Values handed out are shared by every request that sent the same text, so they are frozen
 * (deeply): nothing downstream can change what the next request gets, and the parameter hash
 * can be remembered per object (params-hash.ts). A text that fails its check is not kept: the
 * next request with it is refused again by the same check. The table is keyed by schema
 * identity (memo.ts states what that promises).
 */
import { deepFreeze, memoByIdentity } from './memo.ts';

type Values = Record<string, unknown>;

/** Texts remembered per schema; the map starts over when full. */
const MAX_TEXTS_PER_SCHEMA = 256;
/** Longer texts are checked each time (they are rare, and keeping them would cost memory). */
const MAX_TEXT_LENGTH = 1024;

/** Texts by schema object: a reloaded plugin or a changed specimen.json brings a new one. */
const textsOf = memoByIdentity((_schema: object) => new Map<string, Values>());

/**
 * The values `check` makes of `text` under `schema`, made once per text and frozen.
 * `text` is the raw query value (absent and empty are the same: no parameters).
 */
export function memoizedQueryValues(schema: object, text: string | undefined, check: () => Values): Values {
  const key = text ?? '';
  if (key.length > MAX_TEXT_LENGTH) return check();
  const texts = textsOf(schema);
  const known = texts.get(key);
  if (known) return known;
  const values = deepFreeze(check());
  if (texts.size >= MAX_TEXTS_PER_SCHEMA) texts.clear();
  texts.set(key, values);
  return values;
}
