/**
 * @module routes-processing
 * /api/processing: function listing, schemas, invoke, cache stats and clear.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { toFunctionListing } from '../registry/function-entry.ts';
import type { RequestDeps } from '../request/request-deps.ts';
import { computeRequestOf, resolveRequest } from '../request/specimen-request.ts';
import { sendComputedJson, type ComputedReplyDeps } from './reply-computed.ts';
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

/** What the processing routes read from their host. */
export type ProcessingDeps = RequestDeps & ComputedReplyDeps & Pick<HostContext, 'functions' | 'results'>;

export async function processingRoutes(app: FastifyInstance, opts: { ctx: ProcessingDeps }): Promise<void> {
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
    const params = { named: body.kwargs ?? {}, positional: body.args ?? [] };
    const resolved = await resolveRequest(ctx, { target: { function: entry }, params, room: body.room_id });
    return sendComputedJson(ctx, reply, computeRequestOf(resolved));
  });

  app.get('/api/processing/cache/stats', async () => ctx.results.stats());

  app.post('/api/processing/cache/clear', async () => {
    await ctx.results.clear();
    return { status: 'cleared' };
  });
}
