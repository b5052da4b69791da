/**
 * @module param-check
 * Checks one parameter value against its schema property, the way the host will (types with
 * no coercion, integer, bounds, enum), to explain a problem next to the field before the
 * host's 400 arrives.
 */
import type { ParameterProperty, ParameterSchema } from '../../client/wire-types.ts';

/** The control a property is shown with. */
export type FieldKind = 'slider' | 'number' | 'enum' | 'boolean' | 'string';

/** Chooses the control for a property. */
export function fieldKind(prop: ParameterProperty): FieldKind {
  if (prop.enum) return 'enum';
  if (prop.type === 'boolean') return 'boolean';
  if (prop.type === 'number' || prop.type === 'integer') {
    return typeof prop.minimum === 'number' && typeof prop.maximum === 'number' ? 'slider' : 'number';
  }
  return 'string';
}

/** Why `value` is not acceptable for `prop`, or null when it is. */
export function checkValue(prop: ParameterProperty, value: unknown): string | null {
  if (prop.enum) {
    return prop.enum.some((v) => v === value) ? null : `must be one of ${prop.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  switch (prop.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'string':
      return typeof value === 'string' ? null : 'must be text';
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (prop.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (typeof prop.minimum === 'number' && value < prop.minimum) return `must be at least ${prop.minimum}`;
      if (typeof prop.maximum === 'number' && value > prop.maximum) return `must be at most ${prop.maximum}`;
      return null;
    }
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

/** The value a form starts with: the schema default, else a neutral value of the right type. */
export function initialValue(prop: ParameterProperty): unknown {
  if (prop.default !== undefined) return prop.default;
  if (prop.enum) return prop.enum[0];
  if (prop.type === 'boolean') return false;
  if (prop.type === 'string') return '';
  if (prop.type === 'number' || prop.type === 'integer') return prop.minimum ?? 0;
  return null;
}

/** The values that differ from their schema defaults: what the user chose, kept across a plugin reload. */
export function editedValues(schema: ParameterSchema | null | undefined, values: Record<string, unknown>): Record<string, unknown> {
  const props = schema?.properties ?? {};
  return Object.fromEntries(Object.entries(values).filter(([name, value]) => JSON.stringify(props[name]?.default) !== JSON.stringify(value)));
}
