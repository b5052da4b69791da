/**
 * @module openapi-data
 * `/api/specimens/{id}/data` in the OpenAPI document, described once: the `id` parameter lists
 * every specimen id, each dynamic specimen's parameter schema sits beside it as a component
 * (`Params.<id>`, titled by the id, what `params` takes for that specimen), and the operation's
 * description is the table of ids, types and schemas. The delivery options are those of every
 * result type, each saying which types it fits. It follows the registry, so a reloaded plugin
 * changes it.
 */
import type { HostContext } from '../../host-context.ts';
import { anyTypeDeliveryBody, anyTypeDeliveryParameters } from '../../delivery/delivery-openapi.ts';
import { specimenSchema, specimenType } from '../../registry/specimen-functions.ts';
import { listedPathParameter, paramsComponent } from './openapi-function-start.ts';

type Operation = Record<string, unknown> & { parameters?: Record<string, unknown>[] };

const ROOM_ID = { type: 'string', maxLength: 256 };

/** Rewrites the collected `/data` path; adds the parameter schemas to `schemas`. */
export function describeData(paths: Record<string, Record<string, Operation>>, schemas: Record<string, unknown>, ctx: HostContext): void {
  const data = paths['/api/specimens/{id}/data'];
  if (!data) return;
  const records = ctx.catalog.list();
  const rows: string[] = [];
  const refs: Record<string, unknown>[] = [];
  for (const record of records) {
    const type = specimenType(ctx.functions, record);
    if (!record.is_dynamic) {
      rows.push(`| \`${record.id}\` | ${type} | static: no parameters |`);
      continue;
    }
    const name = `Params.${record.id}`;
    refs.push(paramsComponent(schemas, name, record.id, specimenSchema(ctx.functions, record)));
    rows.push(`| \`${record.id}\` | ${type} | [${name}](#/components/schemas/${name}) |`);
  }
  const description = [
    'The data of one specimen: a static file (or a `.npy` volume as an envelope), or the room-cached result of a dynamic specimen for `params`. Meshes ' +
    'and volumes travel as envelopes by default, point clouds and images as JSON typed results; the delivery options change that.',
    '',
    '| id | type | params |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
  const paramsSchema = refs.length > 0 ? { anyOf: refs } : { type: 'object' };
  const idParameter = listedPathParameter('id', records.map((r) => r.id), 'A specimen id (GET /api/specimens/ lists them)');
  const get = data.get;
  if (get) {
    get.description = description;
    get.parameters = [
      idParameter,
      {
        name: 'params',
        in: 'query',
        description: "The specimen's parameters as JSON (its Params.<id> schema); defaults fill the rest",
        content: { 'application/json': { schema: paramsSchema } },
      },
      { name: 'room_id', in: 'query', schema: ROOM_ID },
      ...anyTypeDeliveryParameters(),
    ];
  }
  const post = data.post;
  if (post) {
    post.description = description;
    post.parameters = [idParameter];
    post.requestBody = {
      required: false,
      content: { 'application/json': { schema: { type: 'object', properties: { params: paramsSchema, room_id: ROOM_ID, delivery: anyTypeDeliveryBody() } } } },
    };
  }
}
