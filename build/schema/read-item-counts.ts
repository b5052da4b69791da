/**
 * @module read-item-counts
 * Turns the `@minItems`/`@maxItems` tags of a function's doc comment into item counts per
 * array parameter, reporting malformed tags (VITRINE_SCHEMA_105).
 */
import type { ItemCountTag } from './read-doc.ts';
import { SchemaError } from './schema-error.ts';

export interface ItemCounts {
  minItems?: number;
  maxItems?: number;
  /** The first tag that set a count on this parameter (for locations). */
  tag: ItemCountTag['tag'];
}

/**
 * Item counts by parameter name. Errors (not a whole number, wrong word count, min above
 * max) are pushed to `errors`; the offending tag is then ignored.
 */
export function readItemCounts(tags: ItemCountTag[], errors: SchemaError[]): Map<string, ItemCounts> {
  const counts = new Map<string, ItemCounts>();
  for (const { tag, kind, words } of tags) {
    const [name, text] = words;
    if (words.length !== 2 || name === undefined || text === undefined || !/^\d+$/.test(text)) {
      errors.push(new SchemaError('VITRINE_SCHEMA_105', tag, `\`@${kind} ${words.join(' ')}\` should read \`@${kind} <parameter> <whole number>\``, name));
      continue;
    }
    const entry: ItemCounts = { ...(counts.get(name) ?? { tag }) };
    entry[kind] = Number(text);
    if (entry.minItems !== undefined && entry.maxItems !== undefined && entry.minItems > entry.maxItems) {
      errors.push(new SchemaError('VITRINE_SCHEMA_105', tag, `minItems ${entry.minItems} of '${name}' is above its maxItems ${entry.maxItems}`, name));
      continue;
    }
    counts.set(name, entry);
  }
  return counts;
}
