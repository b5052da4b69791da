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

/** Rewrites the collected function `/start` operation; adds the parameter schemas to `schemas`. */
export function describeFunctionStart(
  paths: Record<string, Record<string, Operation>>,
  schemas: Record<string, unknown>,
  ctx: Pick<HostContext, 'functions'>,
): void {
  const start = paths['/api/processing/functions/{name}/start']?.post;
  if (!start) return;
  const entries = ctx.functions.list();
  const refs = entries.map((entry) => {
    const { $schema: _ignored, ...schema } = entry.schema;
    const name = `FunctionParams.${entry.name}`;
    schemas[name] = { ...schema, title: entry.name };
    return { $ref: `#/components/schemas/${name}` };
  });
  start.description =
    'Starts a registered function as a job, with no specimen needed: progress, events, result and cancel are the job routes. ' +
    "`params` follows the function's FunctionParams.<name> schema (defaults fill the rest); a room cache hit answers `done` at once.";
  start.parameters = [
    {
      name: 'name',
      in: 'path',
      required: true,
      schema: { type: 'string', ...(entries.length > 0 ? { enum: entries.map((e) => e.name) } : {}) },
      description: 'A function name (GET /api/processing/functions lists them)',
    },
  ];
  const body = start.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined;
  const properties = body?.content?.['application/json']?.schema?.properties;
  if (properties && refs.length > 0) properties.params = { anyOf: refs, description: 'Parameter values by name (absent: every default)' };
}
