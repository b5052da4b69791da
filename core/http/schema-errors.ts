/**
 * @module schema-errors
 * Route inputs are validated by fastify against their declared schemas (route-inputs.ts); this
 * turns a failure into the catalogued error of the input that failed, so a schema refusal reads
 * exactly as the host's other 400s. Validation neither coerces types nor drops members: what a
 * client sent is what the handler sees, and a failing value is kept for the error's detail.
 */
import type { FastifyServerOptions } from 'fastify';
import { createHostError, type HostError } from '../errors.ts';
import { INPUT_ERRORS, type RequestPart } from './route-inputs.ts';

/** ajv's account of one failure (with `verbose`, the failing value as `data`). */
interface SchemaFailure {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  data?: unknown;
}

/** The route validator's ajv options: no coercion, nothing removed, failing values reported. */
export const INPUT_VALIDATION: NonNullable<FastifyServerOptions['ajv']> = {
  customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false, verbose: true, allErrors: false },
};

/** The catalogued error for the first failure of `part` (fastify's `schemaErrorFormatter`). */
export function toInputError(failures: readonly SchemaFailure[], part: string): HostError {
  const failure = failures[0];
  if (!failure) return createHostError('SPC_ERR_BAD_REQUEST', `${part} is invalid`);
  const missing = failure.keyword === 'required' ? String(failure.params.missingProperty) : null;
  const path = failure.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const name = missing ?? path[0] ?? '';
  const error = INPUT_ERRORS[part as RequestPart]?.[name];
  if (error && (missing !== null || path.length <= 1)) return error(missing !== null ? undefined : failure.data, failure.keyword);
  return createHostError('SPC_ERR_BAD_REQUEST', `${[name, ...path.slice(1)].filter(Boolean).join('.') || part} ${failure.message ?? 'is invalid'}`);
}
