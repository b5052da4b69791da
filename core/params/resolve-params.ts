/**
 * @module resolve-params
 * Turns a request's parameters into the checked values a function runs with: positional
 * `args` mapped onto the parameters in order, `kwargs`/`params` by name, schema defaults filled
 * in, then Ajv (draft 2020-12, no type coercion) checks types, bounds, enums, tuple lengths,
 * item counts, colours, the shape of input references and unknown names. Every failure is a
 * 400 whose detail names the parameter (and the item, inside a tuple or array).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { createHostError, type HostError } from '../errors.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import { memoByIdentity, memoByPair } from './memo.ts';
import { addParamVocabulary, COLOR_PATTERN } from './param-vocabulary.ts';

const ajv = addParamVocabulary(new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false, validateSchema: false }));

type Schema = Record<string, unknown>;

function propertiesOf(schema: Schema): Record<string, Schema> {
  const props = schema.properties;
  return props && typeof props === 'object' ? (props as Record<string, Schema>) : {};
}

/** A schema's validator, compiled once per schema object (memo.ts). */
const validatorFor = memoByIdentity((schema: Schema): ValidateFunction => {
  // Unknown names are refused unless the schema itself says otherwise.
  const strictSchema = 'additionalProperties' in schema ? schema : { ...schema, additionalProperties: false };
  return ajv.compile(strictSchema);
});

/** Compiles a schema now, so a broken one is found at registration rather than first use. */
export function precompileSchema(schema: Schema): void {
  validatorFor(schema);
}

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Where inside the parameter Ajv complained: ` item 2` for an element of a tuple or array,
 * ` field 'params'` inside an object value.
 */
function where(segments: string[]): string {
  return segments.map((segment) => (/^\d+$/.test(segment) ? ` item ${segment}` : ` field '${unescapePointer(segment)}'`)).join('');
}

/** The catalogued error for Ajv's first complaint, naming the parameter. */
function toParamError(error: ErrorObject, functionName: string, schema: Schema): HostError {
  const [, first, ...rest] = error.instancePath.split('/');
  const name = first === undefined ? undefined : unescapePointer(first);
  if (error.keyword === 'additionalProperties' && name === undefined) {
    return createHostError('SPC_ERR_PARAM_UNKNOWN', String(error.params.additionalProperty), functionName);
  }
  if (error.keyword === 'required' && name === undefined) {
    return createHostError('SPC_ERR_PARAM_MISSING', String(error.params.missingProperty), functionName);
  }
  const kind = name === undefined ? undefined : inputKindOf(propertiesOf(schema)[name]);
  if (kind !== undefined) {
    // The two accepted shapes, rather than Ajv's account of which `oneOf` branch failed how.
    return createHostError(
      'SPC_ERR_PARAM_INVALID',
      `parameter '${name}' must be {"specimen": "<id>", "params": {...}} or {"upload": "<upload_id>"} (an input of type ${kind})`,
    );
  }
  const at = `parameter '${name ?? '?'}'${where(rest)}`;
  if (error.keyword === 'enum') {
    const allowed = (error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
    return createHostError('SPC_ERR_PARAM_INVALID', `${at} must be one of ${allowed}`);
  }
  if ((error.keyword === 'format' && error.params.format === 'color') || (error.keyword === 'pattern' && error.params.pattern === COLOR_PATTERN)) {
    return createHostError('SPC_ERR_PARAM_INVALID', `${at} must be a colour written #rrggbb`);
  }
  return createHostError('SPC_ERR_PARAM_INVALID', `${at} ${error.message ?? 'is invalid'}`);
}

export interface RawParams {
  /** Named values (`params` or `kwargs`). */
  named?: Record<string, unknown>;
  /** Positional values, mapped onto `order`. */
  positional?: unknown[];
}

const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Merges positional and named values, fills defaults and checks the result.
 * @param order The names positional values map onto (the function's value parameters).
 * @returns The checked values, one per schema property that has a value.
 */
export function resolveParams(schema: Schema, order: string[], raw: RawParams, functionName: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const positional = raw.positional ?? [];
  if (positional.length > order.length) {
    throw createHostError('SPC_ERR_ARGS_TOO_MANY', String(positional.length), functionName, String(order.length));
  }
  for (const [i, value] of positional.entries()) values[order[i]!] = value;
  for (const [name, value] of Object.entries(raw.named ?? {})) {
    // These names would reach an object's prototype, not a parameter.
    if (RESERVED_NAMES.has(name)) throw createHostError('SPC_ERR_PARAM_RESERVED', name, functionName);
    if (Object.hasOwn(values, name)) throw createHostError('SPC_ERR_ARG_TWICE', name);
    values[name] = value;
  }
  for (const [name, prop] of Object.entries(propertiesOf(schema))) {
    if (!Object.hasOwn(values, name) && prop && Object.hasOwn(prop, 'default')) {
      // A tuple, list or input default is copied (it is JSON), so a function that changes it
      // cannot change the schema.
      const value = prop.default;
      values[name] = value !== null && typeof value === 'object' ? (JSON.parse(JSON.stringify(value)) as unknown) : value;
    }
  }
  const validate = validatorFor(schema);
  if (!validate(values)) throw toParamError(validate.errors![0]!, functionName, schema);
  return values;
}

/** Refined schemas, one per pair of objects (memo.ts). */
const refined = memoByPair((base: Schema, refinement: Schema) => mergeSchemas(base, refinement));

/**
 * Refines a generated schema with a specimen.json schema, property by property: the
 * refinement's keywords (`default`, `minimum`, `maximum`, `description`, ...) win; properties
 * it adds are added. The refined schema is what clients see and what values are checked against.
 *
 * The same pair always yields the same object, so the validator compiled for a refined
 * schema is compiled once, not on every request.
 */
export function refineSchema(base: Schema, refinement: Schema | undefined): Schema {
  return refinement ? refined(base, refinement) : base;
}

function mergeSchemas(base: Schema, refinement: Schema): Schema {
  const baseProps = propertiesOf(base);
  const refProps = propertiesOf(refinement);
  const properties: Record<string, Schema> = { ...baseProps };
  for (const [name, prop] of Object.entries(refProps)) properties[name] = { ...(baseProps[name] ?? {}), ...prop };
  const merged: Schema = { ...base, ...refinement, properties };
  for (const key of ['$schema', 'title', 'type'] as const) if (base[key] !== undefined) merged[key] = base[key];
  return merged;
}
