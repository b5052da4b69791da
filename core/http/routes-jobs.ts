/**
 * @module routes-jobs
 * /api/jobs/{id}: progress (with `since`), result, and DELETE to cancel.
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { resultOf, toProgressResponse } from '../jobs/job-views.ts';
import { sendJsonResult } from './reply-json-result.ts';
import { parseSince } from './request-input.ts';

type JobParams = { Params: { id: string } };

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
    ctx.jobs.touch(job!);
    return sendJsonResult(ctx, reply, result, job!.meta.functionName);
  });

  app.delete<JobParams>('/api/jobs/:id', async (request, reply) => {
    if (!ctx.jobs.cancel(request.params.id)) throw createHostError('SPC_ERR_JOB_NOT_FOUND', request.params.id);
    return reply.code(204).send();
  });
}
