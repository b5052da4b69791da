/**
 * @module read-bounds
 * Turns the bound tags of a function's doc comment into `minimum`/`maximum` per parameter, and
 * its `@minItems`/`@maxItems` tags into item counts per array parameter, reporting malformed
 * tags (VITRINE_SCHEMA_105).
 */
import type { BoundTag, ItemCountTag } from './read-doc.ts';
import { SchemaError } from './schema-error.ts';

export interface Bounds {
  minimum?: number;
  maximum?: number;
  /** The first tag that set a bound on this parameter (for locations). */
  tag: BoundTag['tag'];
}

function parseBound(text: string | undefined): number | undefined {
  if (text === undefined || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return undefined;
  return Number(text);
}

/**
 * Bounds by parameter name. Errors (not a number, wrong word count, min above max) are
 * pushed to `errors`; the offending tag is then ignored.
 */
export function readBounds(tags: BoundTag[], errors: SchemaError[]): Map<string, Bounds> {
  const bounds = new Map<string, Bounds>();
  for (const { tag, kind, words } of tags) {
    const expected = kind === 'range' ? 3 : 2;
    const usage = kind === 'range' ? '@range <parameter> <min> <max>' : `@${kind} <parameter> <value>`;
    const [name, first, second] = words;
    const values = [parseBound(first), parseBound(second)];
    if (words.length !== expected || name === undefined || values.slice(0, expected - 1).some((value) => value === undefined)) {
      errors.push(new SchemaError('VITRINE_SCHEMA_105', tag, `\`@${kind} ${words.join(' ')}\` should read \`${usage}\` with literal numbers`, name));
      continue;
    }
    const entry: Bounds = { ...(bounds.get(name) ?? { tag }) };
    if (kind === 'minimum') entry.minimum = values[0];
    else if (kind === 'maximum') entry.maximum = values[0];
    else {
      entry.minimum = values[0];
      entry.maximum = values[1];
    }
    if (entry.minimum !== undefined && entry.maximum !== undefined && entry.minimum > entry.maximum) {
      errors.push(new SchemaError('VITRINE_SCHEMA_105', tag, `minimum ${entry.minimum} of '${name}' is above its maximum ${entry.maximum}`, name));
      continue;
    }
    bounds.set(name, entry);
  }
  return bounds;
}

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
