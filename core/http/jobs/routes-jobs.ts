/**
 * @module routes-jobs
 * /api/jobs/{id}: progress (with `since`), result, and DELETE to cancel. A known client that
 * cannot ask for a delivery (the Godot headset client) gets a job's result as its `/data`
 * would be: one step of a volume with time or channels, its volumes uint8 at most 256 a side,
 * its meshes within the headset's triangle budget. Cancels are bounded: past MAX_CANCELS within
 * a second, a DELETE gets 503 with `Retry-After`.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { sendJsonDelivery, type DeliveryReplyDeps } from '../reply-delivery.ts';
import { isHeadsetClient, withClientProfile, type ClientProfileSettings } from '../../delivery/client-profile.ts';
import { stepDelivery } from '../../delivery/volume-step.ts';
import { RESULT_ID_HEADER } from '../../serving/result-ids.ts';
import { PROVENANCE_HEADER, provenanceHeader } from '../../versions/provenance.ts';
import { parseSince, sinceQuery } from '../request-input.ts';
import { idParams, queryOf, SINCE } from '../route-inputs.ts';
import { WorkGate } from '../../memory/work-gate.ts';

/** Cancels taken within CANCEL_COST_MS; past them a DELETE is refused (503, Retry-After). */
export const MAX_CANCELS = 200;
const CANCEL_COST_MS = 1000;

type JobParams = { Params: { id: string } };
const params = idParams('id');

/** What the job routes read from their host. */
export type JobDeps = DeliveryReplyDeps & Pick<HostContext, 'jobs' | 'resultIds'> & { options: ClientProfileSettings };

export async function jobRoutes(app: FastifyInstance, { ctx }: { ctx: JobDeps }): Promise<void> {
  const cancels = new WorkGate('job cancellations within a second', MAX_CANCELS);

  app.get<JobParams & { Querystring: { since?: string } }>(
    '/api/jobs/:id/progress',
    { schema: { params, querystring: queryOf({ since: SINCE }) } },
    async (request) => ctx.jobs.progress(request.params.id, parseSince(sinceQuery(request.query))),
  );

  app.get<JobParams>('/api/jobs/:id/result', { compress: false, schema: { params } }, async (request, reply) => {
    const { result, functionName, provenance } = await ctx.jobs.result(request.params.id);
    const said = provenance ? provenanceHeader(provenance) : null;
    if (said) reply.header(PROVENANCE_HEADER, said);
    const resultId = await ctx.resultIds.of(result);
    reply.header(RESULT_ID_HEADER, resultId);
    const userAgent = request.headers['user-agent'];
    if (!isHeadsetClient(userAgent) || !ctx.options.clientProfiles) return sendJsonDelivery(ctx, reply, result, functionName, resultId, true);
    const profile = stepDelivery(result, withClientProfile({}, result.type, userAgent, ctx.options));
    const shaped = await ctx.delivery.shaped(result, profile, request.ip);
    // Shaped for this client alone: never handed to a shared cache under the result's own blob.
    const sending = { accelRedirect: null, extra: { 'cache-control': 'no-cache', vary: 'Accept-Encoding, User-Agent' }, name: functionName };
    return sendJsonDelivery(ctx, reply, shaped, functionName, resultId, false, sending, profile);
  });

  app.delete<JobParams>('/api/jobs/:id', { schema: { params } }, async (request, reply) => {
    // A cancel's cost follows it (a thread ended and started again): counted for a while after.
    cancels.hold(CANCEL_COST_MS);
    if (!(await ctx.jobs.cancel(request.params.id))) throw createHostError('SPC_ERR_JOB_NOT_FOUND', request.params.id);
    return reply.code(204).send();
  });
}
