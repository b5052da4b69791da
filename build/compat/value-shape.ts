/**
 * @module value-shape
 * A parameter's schema property seen as the set of values it accepts: a scalar with its
 * bounds, an enum, a fixed tuple, a list with its item counts, a specimen input, or (for a
 * schema this build never writes) the raw schema. Also how each is written for a person, in
 * the plugin's own language (`Integer`, `number[]` for TypeScript; `int`, `list[float]` for
 * Python), so a message reads like the signature that changed.
 */

export type ScalarName = 'number' | 'integer' | 'string' | 'boolean';
export type Language = 'node' | 'python';

export type ValueShape =
  | { kind: 'scalar'; type: ScalarName; color: boolean; minimum?: number; maximum?: number }
  | { kind: 'enum'; values: (string | number)[] }
  | { kind: 'tuple'; items: ValueShape[] }
  | { kind: 'array'; items: ValueShape; minItems?: number; maxItems?: number }
  | { kind: 'input'; input: string }
  | { kind: 'other'; schema: unknown };

const SCALARS: readonly string[] = ['number', 'integer', 'string', 'boolean'];

const numberOrUndefined = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** The shape of one schema property (or of an array's item schema). */
export function toValueShape(schema: unknown): ValueShape {
  if (typeof schema !== 'object' || schema === null) return { kind: 'other', schema };
  const s = schema as Record<string, unknown>;
  if (typeof s['x-vitrine-input'] === 'string') return { kind: 'input', input: s['x-vitrine-input'] };
  if (Array.isArray(s['enum'])) return { kind: 'enum', values: s['enum'] as (string | number)[] };
  if (s['type'] === 'array' && Array.isArray(s['prefixItems'])) return { kind: 'tuple', items: s['prefixItems'].map(toValueShape) };
  if (s['type'] === 'array' && typeof s['items'] === 'object' && s['items'] !== null) {
    return { kind: 'array', items: toValueShape(s['items']), minItems: numberOrUndefined(s['minItems']), maxItems: numberOrUndefined(s['maxItems']) };
  }
  if (typeof s['type'] === 'string' && SCALARS.includes(s['type'])) {
    return {
      kind: 'scalar',
      type: s['type'] as ScalarName,
      color: s['format'] === 'color',
      minimum: numberOrUndefined(s['minimum']),
      maximum: numberOrUndefined(s['maximum']),
    };
  }
  return { kind: 'other', schema };
}

const SCALAR_LABELS: Record<Language, Record<ScalarName, string>> = {
  node: { number: 'number', integer: 'Integer', string: 'string', boolean: 'boolean' },
  python: { number: 'float', integer: 'int', string: 'str', boolean: 'bool' },
};

const INPUT_LABELS: Record<string, string> = { mesh: 'MeshInput', volume: 'VolumeInput', point_cloud: 'PointCloudInput', image: 'ImageInput' };

/** A JSON value as a person reads it in a message (strings quoted once). */
export function showValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

/** `shape` written as the type a plugin author would write in `language`. */
export function labelOf(shape: ValueShape, language: Language): string {
  switch (shape.kind) {
    case 'scalar':
      return shape.color ? 'Color' : SCALAR_LABELS[language][shape.type];
    case 'enum':
      return language === 'python' ? `Literal[${shape.values.map(showValue).join(', ')}]` : shape.values.map(showValue).join(' | ');
    case 'tuple': {
      const items = shape.items.map((item) => labelOf(item, language)).join(', ');
      return language === 'python' ? `tuple[${items}]` : `[${items}]`;
    }
    case 'array':
      return language === 'python' ? `list[${labelOf(shape.items, language)}]` : `${wrapUnion(labelOf(shape.items, language))}[]`;
    case 'input':
      return INPUT_LABELS[shape.input] ?? `${shape.input} input`;
    case 'other':
      return JSON.stringify(shape.schema);
  }
}

/** `'a' | 'b'` as an array element needs parentheses. */
function wrapUnion(label: string): string {
  return label.includes(' | ') ? `(${label})` : label;
}
