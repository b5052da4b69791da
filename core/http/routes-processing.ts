/**
 * @module routes-processing
 * /api/processing: function listing, schemas, invoke, cache stats and clear.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { checkInputs } from '../inputs/check-inputs.ts';
import { toFunctionListing, valueParameterNames } from '../registry/function-entry.ts';
import { abortOnDisconnect } from './abort-on-disconnect.ts';
import { sendJsonDelivery } from './reply-delivery.ts';
import { RESULT_ID_HEADER } from '../serving/result-ids.ts';
import { roomOf } from './request-input.ts';
import { bodyOf, idParams, ROOM_ID } from './route-inputs.ts';

interface InvokeBody {
  function_name: string;
  args?: unknown[] | null;
  kwargs?: Record<string, unknown> | null;
  room_id?: string | null;
}

/** What /invoke takes; /openapi.json shows it as one alternative per registered function (ops/openapi.ts). */
const INVOKE_BODY = bodyOf(
  {
    function_name: { type: 'string', minLength: 1 },
    args: { type: ['array', 'null'], description: 'Values by position, in parameter order' },
    kwargs: { type: ['object', 'null'], description: 'Values by parameter name' },
    room_id: ROOM_ID,
  },
  ['function_name'],
);

export async function processingRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;

  app.get('/api/processing/functions', async () => ctx.functions.list().map(toFunctionListing));

  app.get<{ Params: { name: string } }>('/api/processing/functions/:name/schema', { schema: { params: idParams('name') } }, async (request) => {
    const entry = ctx.functions.get(request.params.name);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', request.params.name);
    return entry.schema;
  });

  app.post<{ Body: InvokeBody }>('/api/processing/invoke', { compress: false, schema: { body: INVOKE_BODY } }, async (request, reply) => {
    const body = request.body;
    const entry = ctx.functions.get(body.function_name);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', body.function_name);
    const checked = resolveParams(entry.schema, valueParameterNames(entry), { positional: body.args ?? [], named: body.kwargs ?? {} }, entry.name);
    const { values, inputs } = await checkInputs(ctx, entry, entry.schema, checked);
    const roomId = roomOf(ctx, body.room_id);
    const result = await ctx.results.compute({ entry, values, ...(inputs ? { inputs } : {}), roomId, signal: abortOnDisconnect(request, reply) });
    const resultId = await ctx.resultIds.of(result);
    reply.header(RESULT_ID_HEADER, resultId);
    return sendJsonDelivery(ctx, reply, result, entry.name, resultId);
  });

  app.get('/api/processing/cache/stats', async () => ctx.results.stats());

  app.post('/api/processing/cache/clear', async () => {
    await ctx.results.clear();
    return { status: 'cleared' };
  });
}
