/**
 * @module routes-jobs
 * /api/jobs/{id}: progress (with `since`), result, and DELETE to cancel.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { resultOf, toProgressResponse } from '../jobs/job-views.ts';
import { sendJsonResult } from './reply-json-result.ts';

type JobParams = { Params: { id: string } };

/** `since` (contract §3: a non-integer is a 400; default -1 returns everything). */
function parseSince(raw: unknown): number {
  if (raw === undefined || raw === '') return -1;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw.trim())) throw createHostError('SPC_ERR_SINCE_INVALID', String(raw));
  return Number.parseInt(raw, 10);
}

export async function jobRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;

  app.get<JobParams & { Querystring: { since?: unknown } }>('/api/jobs/:id/progress', async (request) => {
    const since = parseSince(request.query.since);
    const job = ctx.jobs.get(request.params.id);
    if (!job) throw createHostError('SPC_ERR_JOB_NOT_FOUND', request.params.id);
    return toProgressResponse(job, since);
  });

  app.get<JobParams>('/api/jobs/:id/result', async (request, reply) => {
    const job = ctx.jobs.get(request.params.id);
    const result = resultOf(job, request.params.id);
    return sendJsonResult(ctx, reply, result, job!.meta.functionName);
  });

  app.delete<JobParams>('/api/jobs/:id', async (request, reply) => {
    if (!ctx.jobs.cancel(request.params.id)) throw createHostError('SPC_ERR_JOB_NOT_FOUND', request.params.id);
    return reply.code(204).send();
  });
}
