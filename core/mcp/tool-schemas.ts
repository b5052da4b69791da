/**
 * @module tool-schemas
 * The members the agents' tools' input schemas share. What a function takes is never written
 * twice: the `params` of `compute` and `show_in_room` list each function's parameter schema
 * from its manifest and each dynamic specimen's refined schema, as `GET /api/specimens/{id}`
 * and `/api/processing/functions/{name}/schema` show them. Built from the registries at each
 * listing, so a reloaded plugin is seen at once.
 */
import { MAX_ROOM_ID_LENGTH } from '../events/layer-slots.ts';
import { ROOM_ID_PATTERN } from '../events/room-id.ts';
import type { HostContext } from '../host-context.ts';
import { specimenSchema } from '../registry/specimen-functions.ts';
import type { ToolSchema, ToolSchemaParts } from './mcp-tool.ts';

const ROOM: ToolSchema = { type: 'string', maxLength: MAX_ROOM_ID_LENGTH, pattern: ROOM_ID_PATTERN, description: 'The room (absent: the default room)' };

/** A parameter schema as a member of another: titled after what it belongs to, without `$schema`. */
function member(schema: ToolSchema, title: string): ToolSchema {
  const { $schema: _ignored, ...rest } = schema;
  return { ...rest, title };
}

/** The `specimen`, `function` and `params` members: every id and name, every parameter schema. */
function targetProperties(ctx: Pick<HostContext, 'catalog' | 'functions'>): ToolSchemaParts['target'] {
  const records = ctx.catalog.list();
  const functions = ctx.functions.list();
  const variants: ToolSchema[] = [];
  for (const entry of functions) variants.push(member(entry.schema, `function ${entry.name}`));
  for (const record of records) {
    if (!record.is_dynamic || !record.function_name || !ctx.functions.get(record.function_name)) continue;
    variants.push(member(specimenSchema(ctx.functions, record), `specimen ${record.id}`));
  }
  return {
    specimen: { type: 'string', enum: records.map((r) => r.id), description: 'A specimen id (give this or function)' },
    function: { type: 'string', enum: functions.map((f) => f.name), description: 'A function name (give this or specimen)' },
    params: {
      type: 'object',
      description:
        "Parameter values by name; absent ones take their defaults. Each alternative is one function's or dynamic specimen's parameter schema (see its title).",
      ...(variants.length > 0 ? { anyOf: variants } : {}),
    },
  };
}

/** The shared members of this listing. */
export function toolSchemaParts(ctx: Pick<HostContext, 'catalog' | 'functions'>): ToolSchemaParts {
  return { target: targetProperties(ctx), room: ROOM };
}

/** An object schema with these properties (and these required). */
export function objectSchema(properties: Record<string, ToolSchema>, required: string[] = []): ToolSchema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}
