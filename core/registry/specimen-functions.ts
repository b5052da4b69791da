/**
 * @module specimen-functions
 * A specimen as the registry sees it: the catalog's record or a 404, the function behind a
 * dynamic specimen, the type and parameter schema clients see (the function's, refined by the
 * specimen's own). Each takes only the catalog or the function registry it reads (a request's
 * values are checked in request/given-params.ts).
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { refineSchema } from '../params/resolve-params.ts';
import type { FunctionEntry } from './function-entry.ts';
import type { FunctionRegistry } from './function-registry.ts';
import type { SpecimenCatalog } from './specimen-catalog.ts';

/** The functions a specimen's helpers look up (a registry, or anything with its `get`). */
export type FunctionLookup = Pick<FunctionRegistry, 'get'>;

/** The specimen, or 404. */
export function specimenOr404(catalog: Pick<SpecimenCatalog, 'get'>, id: string): SpecimenRecord {
  const record = catalog.get(id);
  if (!record) throw createHostError('SPC_ERR_SPECIMEN_NOT_FOUND', id);
  return record;
}

/** The function behind a dynamic specimen, or 503 when it is not (or no longer) registered. */
export function functionOfSpecimen(functions: FunctionLookup, record: SpecimenRecord): FunctionEntry {
  const entry = record.function_name ? functions.get(record.function_name) : undefined;
  if (!entry) throw createHostError('SPC_ERR_FUNCTION_UNAVAILABLE', record.id, record.function_name ?? '?');
  return entry;
}

/** The type clients see: the function's return type for a dynamic specimen that gave none. */
export function specimenType(functions: FunctionLookup, record: SpecimenRecord): string {
  if (!record.type_from_function || !record.function_name) return record.type;
  return functions.get(record.function_name)?.return_type ?? record.type;
}

/**
 * The schema clients see for a dynamic specimen whose function is `entry`: the function's,
 * refined by specimen.json. The same pair gives the same object (params/memo.ts).
 */
export function schemaOfSpecimen(record: SpecimenRecord, entry: FunctionEntry): Record<string, unknown> {
  return refineSchema(entry.schema, record.schema_override);
}

/** The schema clients see for a dynamic specimen: the function's, refined by specimen.json. */
export function specimenSchema(functions: FunctionLookup, record: SpecimenRecord): Record<string, unknown> {
  const entry = record.function_name ? functions.get(record.function_name) : undefined;
  if (entry) return schemaOfSpecimen(record, entry);
  const base = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: record.function_name ?? record.id,
    type: 'object',
    properties: {},
  };
  return refineSchema(base, record.schema_override);
}
