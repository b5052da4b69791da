/**
 * @module params-hash
 * The cache key: function name plus a hash of the checked parameters with defaults filled in,
 * written with sorted keys (stable-json.ts) so that key order in the request never matters.
 * `{}` and the explicit defaults are the same key on /invoke, /data and /start.
 */
import { hash } from 'node:crypto';
import { identityTable } from './memo.ts';
import { stableJson } from '../wire/stable-json.ts';

/** Hashes of recent short parameter texts: every cache hit computes its key, and rooms ask for the same few. */
const recent = new Map<string, string>();
const RECENT_MAX = 1024;
const RECENT_TEXT_MAX = 1024;

/**
 * Hashes of frozen values objects (query-values-memo.ts hands the same one to every request
 * with the same text): nothing can change them, so their hash is made once.
 */
const ofFrozen = identityTable<object, string>();

export function hashParams(params: Record<string, unknown>): string {
  const frozen = Object.isFrozen(params);
  if (frozen) {
    const known = ofFrozen.get(params);
    if (known !== undefined) return known;
  }
  const hex = hashText(stableJson(params));
  return frozen ? ofFrozen.remember(params, hex) : hex;
}

function hashText(text: string): string {
  let hex = recent.get(text);
  if (hex === undefined) {
    hex = hash('sha256', text, 'hex').slice(0, 32);
    if (text.length <= RECENT_TEXT_MAX) {
      if (recent.size >= RECENT_MAX) recent.clear();
      recent.set(text, hex);
    }
  }
  return hex;
}

/** `<function>:<hash>`: one room cache key. */
export function cacheKey(functionName: string, params: Record<string, unknown>): string {
  return `${functionName}:${hashParams(params)}`;
}
