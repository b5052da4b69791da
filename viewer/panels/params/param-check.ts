/**
 * @module param-check
 * Checks one parameter value against its schema property, the way the host will (types with
 * no coercion, integer, bounds, enum, tuple length, item counts, colours, input references), to
 * explain a problem next to the field before the host's 400 arrives.
 */
import type { ParameterProperty, ParameterSchema } from '../../../core/wire/wire-types.ts';

/** The control a property is shown with. */
export type FieldKind = 'slider' | 'number' | 'enum' | 'boolean' | 'string' | 'color' | 'vector' | 'list';

/** A colour as parameters write it. */
export const COLOR = /^#[0-9a-fA-F]{6}$/;

/** A number as a field shows it (twelve significant digits at most); '' for anything else. */
export function formatNumber(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '';
}

/** Chooses the control for a property (input parameters have their own: input-field.ts). */
export function fieldKind(prop: ParameterProperty): FieldKind {
  if (prop.enum) return 'enum';
  if (prop.type === 'boolean') return 'boolean';
  if (prop.type === 'number' || prop.type === 'integer') {
    return typeof prop.minimum === 'number' && typeof prop.maximum === 'number' ? 'slider' : 'number';
  }
  if (prop.type === 'array') return prop.prefixItems ? 'vector' : 'list';
  if (prop.type === 'string' && prop.format === 'color') return 'color';
  return 'string';
}

/** The schema of item `index` of an array property. */
export function itemSchema(prop: ParameterProperty, index: number): ParameterProperty {
  return prop.prefixItems?.[index] ?? (prop.items || {});
}

function checkArray(prop: ParameterProperty, value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be a list';
  if (prop.prefixItems && value.length !== prop.prefixItems.length) return `must have exactly ${prop.prefixItems.length} values`;
  if (typeof prop.minItems === 'number' && value.length < prop.minItems)
    return `must have at least ${prop.minItems} item${prop.minItems === 1 ? '' : 's'}`;
  if (typeof prop.maxItems === 'number' && value.length > prop.maxItems)
    return `must have at most ${prop.maxItems} item${prop.maxItems === 1 ? '' : 's'}`;
  for (const [index, item] of value.entries()) {
    const problem = checkValue(itemSchema(prop, index), item);
    if (problem) return `item ${index + 1} ${problem}`;
  }
  return null;
}

function checkInput(value: unknown): string | null {
  const shape = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const ok =
    shape &&
    ((typeof shape['specimen'] === 'string' && shape['specimen'] !== '') ||
      (typeof shape['upload'] === 'string' && shape['upload'] !== ''));
  return ok ? null : 'must name a specimen or an upload';
}

/** Why `value` is not acceptable for `prop`, or null when it is. */
export function checkValue(prop: ParameterProperty, value: unknown): string | null {
  if (prop['x-vitrine-input']) return checkInput(value);
  if (prop.enum) {
    return prop.enum.some((v) => v === value) ? null : `must be one of ${prop.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  switch (prop.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (prop.format === 'color' && !COLOR.test(value)) return 'must be a colour written #rrggbb';
      return null;
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (prop.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (typeof prop.minimum === 'number' && value < prop.minimum) return `must be at least ${prop.minimum}`;
      if (typeof prop.maximum === 'number' && value > prop.maximum) return `must be at most ${prop.maximum}`;
      return null;
    }
    case 'array':
      return checkArray(prop, value);
    default:
      return null;
  }
}

/** A slider step: 1 for integers, else about a hundredth of the range, rounded to a power of ten. */
export function sliderStep(prop: ParameterProperty): number {
  if (prop.type === 'integer') return 1;
  const span = (prop.maximum ?? 1) - (prop.minimum ?? 0);
  if (!(span > 0)) return 0.01;
  return 10 ** Math.floor(Math.log10(span / 100));
}

/**
 * True for a parameter a form may leave out: not required and with no default. Its field
 * starts unset, and an unset parameter is not sent (the function then receives `undefined`).
 */
export function isUnsettable(prop: ParameterProperty, required: boolean): boolean {
  return !required && prop.default === undefined;
}

/** The value a form starts with: the schema default, else a neutral value of the right type. */
export function initialValue(prop: ParameterProperty): unknown {
  if (prop.default !== undefined) return structuredClone(prop.default);
  if (prop.enum) return prop.enum[0];
  if (prop.type === 'boolean') return false;
  if (prop.type === 'string') return prop.format === 'color' ? '#808080' : '';
  if (prop.type === 'number' || prop.type === 'integer') return prop.minimum ?? 0;
  if (prop.type === 'array') {
    if (prop.prefixItems) return prop.prefixItems.map((item) => initialValue(item));
    return Array.from({ length: prop.minItems ?? 0 }, () => initialValue(itemSchema(prop, 0)));
  }
  return null;
}

/** The values that differ from their schema defaults: what the user chose, kept across a plugin reload. */
export function editedValues(schema: ParameterSchema | null | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const props = schema?.properties ?? {};
  return Object.fromEntries(
    Object.entries(values).filter(([name, value]) => JSON.stringify(props[name]?.default) !== JSON.stringify(value)),
  );
}
