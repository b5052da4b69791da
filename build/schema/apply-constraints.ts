/**
 * @module apply-constraints
 * Puts a parameter's doc-comment constraints into its schema fragment. Bounds (`@minimum`,
 * `@maximum`, `@range`) apply to a number or Integer, or to every numeric item of a tuple or
 * array of them (a vector's components). Item counts (`@minItems`, `@maxItems`) apply to
 * arrays of any length; a tuple's length is already fixed.
 */
import type { Bounds, ItemCounts } from './read-bounds.ts';
import type { SchemaFragment } from './param-parser.ts';

const isNumber = (fragment: SchemaFragment): boolean => fragment.type === 'number' || fragment.type === 'integer';

/** The fragments bounds apply to: the parameter itself, or its numeric items. */
function boundTargets(fragment: SchemaFragment): SchemaFragment[] {
  if (isNumber(fragment)) return [fragment];
  if (fragment.type !== 'array') return [];
  const items = (fragment['prefixItems'] as SchemaFragment[] | undefined) ?? [fragment['items'] as SchemaFragment];
  return items.filter(isNumber);
}

/** True when `@minimum`/`@maximum`/`@range` may name a parameter of this schema. */
export function acceptsBounds(fragment: SchemaFragment): boolean {
  return boundTargets(fragment).length > 0;
}

/** True when `@minItems`/`@maxItems` may name a parameter of this schema (an array, not a tuple). */
export function acceptsItemCounts(fragment: SchemaFragment): boolean {
  return fragment.type === 'array' && fragment['prefixItems'] === undefined;
}

/** The values of bounds and item counts, wherever they were written (a doc tag, a Python marker). */
type BoundValues = Pick<Bounds, 'minimum' | 'maximum'>;
type CountValues = Pick<ItemCounts, 'minItems' | 'maxItems'>;

/** `fragment` with the bounds that are given. */
export function withBounds(fragment: SchemaFragment, bounds: BoundValues): SchemaFragment {
  const bounded: SchemaFragment = { ...fragment };
  if (bounds.minimum !== undefined) bounded['minimum'] = bounds.minimum;
  if (bounds.maximum !== undefined) bounded['maximum'] = bounds.maximum;
  return bounded;
}

/**
 * The fragment with constraints that fit it applied (callers report the ones that do not).
 * A scalar's bounds are not applied here: they follow `description` and `default` in the
 * property, as before.
 */
export function applyConstraints(fragment: SchemaFragment, bounds: BoundValues | undefined, counts: CountValues | undefined): SchemaFragment {
  if (fragment.type !== 'array') return fragment;
  const result: SchemaFragment = { ...fragment };
  if (bounds) {
    const bound = (item: SchemaFragment): SchemaFragment => (isNumber(item) ? withBounds(item, bounds) : item);
    if (Array.isArray(result['prefixItems'])) result['prefixItems'] = (result['prefixItems'] as SchemaFragment[]).map(bound);
    else result['items'] = bound(result['items'] as SchemaFragment);
  }
  if (counts && acceptsItemCounts(fragment)) {
    if (counts.minItems !== undefined) result['minItems'] = counts.minItems;
    if (counts.maxItems !== undefined) result['maxItems'] = counts.maxItems;
  }
  return result;
}
