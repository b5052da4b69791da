/**
 * @module routes-processing
 * /api/processing: function listing, schemas, invoke, cache stats and clear.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { expectParamsObject } from '../params/parse-params.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { checkInputs } from '../inputs/check-inputs.ts';
import { toFunctionListing, valueParameterNames } from '../registry/function-entry.ts';
import { abortOnDisconnect } from './abort-on-disconnect.ts';
import { sendJsonDelivery } from './reply-delivery.ts';
import { RESULT_ID_HEADER } from '../results/result-ids.ts';
import { expectBody, roomOf } from './request-input.ts';

export async function processingRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;

  app.get('/api/processing/functions', async () => ctx.functions.list().map(toFunctionListing));

  app.get<{ Params: { name: string } }>('/api/processing/functions/:name/schema', async (request) => {
    const entry = ctx.functions.get(request.params.name);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', request.params.name);
    return entry.schema;
  });

  app.post('/api/processing/invoke', { compress: false }, async (request, reply) => {
    const body = expectBody(request.body);
    const name = body.function_name;
    if (typeof name !== 'string' || name === '') throw createHostError('SPC_ERR_BAD_REQUEST', 'function_name (a string) is required');
    if (body.args !== undefined && body.args !== null && !Array.isArray(body.args)) throw createHostError('SPC_ERR_BAD_REQUEST', 'args must be an array');
    const kwargs = body.kwargs === null ? {} : body.kwargs;
    if (kwargs !== undefined && (typeof kwargs !== 'object' || Array.isArray(kwargs))) throw createHostError('SPC_ERR_BAD_REQUEST', 'kwargs must be a JSON object');
    const entry = ctx.functions.get(name);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
    const checked = resolveParams(entry.schema, valueParameterNames(entry), { positional: (body.args as unknown[] | undefined) ?? [], named: expectParamsObject(kwargs) }, entry.name);
    const { values, inputs } = await checkInputs(ctx, entry, entry.schema, checked);
    const roomId = roomOf(ctx, body.room_id);
    const result = await ctx.results.compute({ entry, values, ...(inputs ? { inputs } : {}), roomId, signal: abortOnDisconnect(request, reply) });
    reply.header(RESULT_ID_HEADER, await ctx.resultIds.of(result));
    return sendJsonDelivery(ctx, reply, result, entry.name);
  });

  app.get('/api/processing/cache/stats', async () => ctx.results.stats());

  app.post('/api/processing/cache/clear', async () => {
    await ctx.results.clear();
    return { status: 'cleared' };
  });
}
