/**
 * @module tool-schemas
 * The input schemas of the agents' tools. What a function takes is never written twice: the
 * `params` of `compute` and `show_in_room` list each function's parameter schema from its
 * manifest and each dynamic specimen's refined schema, as `GET /api/specimens/{id}` and
 * `/api/processing/functions/{name}/schema` show them; the view settings are the room view's
 * own. Built from the registries at each listing, so a reloaded plugin is seen at once.
 */
import type { HostContext } from '../host-context.ts';
import { specimenSchema } from '../registry/specimen-functions.ts';
import { VIEW_PROPERTIES } from '../rooms/room-view.ts';

type Schema = Record<string, unknown>;

const ROOM = { type: 'string', description: 'The room (absent: the default room)' };

/** A parameter schema as a member of another: titled after what it belongs to, without `$schema`. */
function member(schema: Schema, title: string): Schema {
  const { $schema: _ignored, ...rest } = schema;
  return { ...rest, title };
}

/** The `specimen`, `function` and `params` members: every id and name, every parameter schema. */
function targetProperties(ctx: Pick<HostContext, 'catalog' | 'functions'>): Record<string, Schema> {
  const records = ctx.catalog.list();
  const functions = ctx.functions.list();
  const variants: Schema[] = [];
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
      description: "Parameter values by name; absent ones take their defaults. Each alternative is one function's or dynamic specimen's parameter schema (see its title).",
      ...(variants.length > 0 ? { anyOf: variants } : {}),
    },
  };
}

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

export function toolSchemas(ctx: Pick<HostContext, 'catalog' | 'functions'>): Record<string, Schema> {
  const target = targetProperties(ctx);
  return {
    list_specimens: object({ type: { enum: ['mesh', 'volume', 'point_cloud', 'image'], description: 'Only specimens of this type' }, tag: { type: 'string', description: 'Only specimens with this tag' } }),
    describe_specimen: object({ id: target.specimen! }, ['id']),
    compute: object({ ...target, room: ROOM }),
    show_in_room: object({ room: ROOM, ...target }),
    set_view: object({ room: ROOM, ...VIEW_PROPERTIES }),
    get_room: object({ room: ROOM }),
    publish_from_upload: object(
      {
        id: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', maxLength: 128, description: 'The id to publish under (a new one, or one published before)' },
        upload: { type: 'string', description: 'An upload id from POST /api/uploads' },
        display_name: { type: 'string' },
        description: { type: 'string' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      ['id', 'upload'],
    ),
  };
}
