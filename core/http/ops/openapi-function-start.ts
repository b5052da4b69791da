/**
 * @module openapi-function-start
 * `/api/processing/functions/{name}/start` in the OpenAPI document: the `name` parameter lists
 * every registered function, and each function's parameter schema sits beside it as a
 * component (`FunctionParams.<name>`, titled by the name), what `params` takes when that
 * function is started. Specimens have their own `Params.<id>` (openapi-data.ts): a specimen
 * may refine its function's schema, so the two are kept apart even when the names agree. It
 * follows the registry, so a reloaded plugin changes it.
 */
import type { HostContext } from '../../host-context.ts';

type Operation = Record<string, unknown>;

/** `schema` (without its `$schema`) as component `name` of `schemas`, titled `title`; its `$ref`. */
export function paramsComponent(schemas: Record<string, unknown>, name: string, title: string, schema: Record<string, unknown>): { $ref: string } {
  const { $schema: _ignored, ...rest } = schema;
  schemas[name] = { ...rest, title };
  return { $ref: `#/components/schemas/${name}` };
}

/** A path parameter whose schema lists `values` (when there are any). */
export function listedPathParameter(name: string, values: string[], description: string): Record<string, unknown> {
  return { name, in: 'path', required: true, schema: { type: 'string', ...(values.length > 0 ? { enum: values } : {}) }, description };
}

/** Rewrites the collected function `/start` operation; adds the parameter schemas to `schemas`. */
export function describeFunctionStart(
  paths: Record<string, Record<string, Operation>>,
  schemas: Record<string, unknown>,
  ctx: Pick<HostContext, 'functions'>,
): void {
  const start = paths['/api/processing/functions/{name}/start']?.post;
  if (!start) return;
  const entries = ctx.functions.list();
  const refs = entries.map((entry) => paramsComponent(schemas, `FunctionParams.${entry.name}`, entry.name, entry.schema));
  start.description =
    'Starts a registered function as a job, with no specimen needed: progress, events, result and cancel are the job routes. ' +
    "`params` follows the function's FunctionParams.<name> schema (defaults fill the rest); a room cache hit answers `done` at once.";
  start.parameters = [listedPathParameter('name', entries.map((e) => e.name), 'A function name (GET /api/processing/functions lists them)')];
  const body = start.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined;
  const properties = body?.content?.['application/json']?.schema?.properties;
  if (properties && refs.length > 0) properties.params = { anyOf: refs, description: 'Parameter values by name (absent: every default)' };
}
