/**
 * @module routes-processing
 * /api/processing: function listing, schemas, invoke, a function started as a job (no
 * specimen needed, so whatever the Functions list shows can report progress and be
 * cancelled), cache stats and clear.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { toFunctionListing, type FunctionEntry } from '../../registry/function-entry.ts';
import { computeRequestOf, resolveRequest } from '../../request/specimen-request.ts';
import { sendComputedJson, type ComputedReplyDeps } from '../reply-computed.ts';
import { bodyOf, idParams, ROOM_ID } from '../route-inputs.ts';
import { START_BODY, START_REPLY, startJob, type StartBody, type StartDeps } from '../jobs/start-job.ts';

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
export type ProcessingDeps = StartDeps & ComputedReplyDeps & Pick<HostContext, 'functions' | 'results'>;

type NameParams = { Params: { name: string } };
const nameParams = idParams('name');

export async function processingRoutes(app: FastifyInstance, { ctx }: { ctx: ProcessingDeps }): Promise<void> {
  const functionOr404 = (name: string): FunctionEntry => {
    const entry = ctx.functions.get(name);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
    return entry;
  };

  app.get('/api/processing/functions', async () => ctx.functions.list().map(toFunctionListing));

  app.get<NameParams>('/api/processing/functions/:name/schema', { schema: { params: nameParams } }, async (request) =>
    functionOr404(request.params.name).schema,
  );

  app.post<NameParams & { Body: StartBody }>(
    '/api/processing/functions/:name/start',
    { schema: { params: nameParams, body: START_BODY, response: START_REPLY } },
    async (request) => startJob(ctx, { function: functionOr404(request.params.name) }, request.body),
  );

  app.post<{ Body: InvokeBody }>('/api/processing/invoke', { compress: false, schema: { body: INVOKE_BODY } }, async (request, reply) => {
    const body = request.body;
    const entry = functionOr404(body.function_name);
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
