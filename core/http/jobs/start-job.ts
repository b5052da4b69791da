/**
 * @module start-job
 * What the two `/start` routes share: a dynamic specimen's (`/api/specimens/{id}/start`) and a
 * function's without a specimen (`/api/processing/functions/{name}/start`). Both take the same
 * body, resolve it through the one request path (so a bad parameter, an input or a room id
 * fails the same way on either) and hand the job service the same request; they differ only in
 * how the route finds what to compute. The job is then an ordinary one: progress, events,
 * result and cancel do not know which route began it.
 */
import type { StartResponse } from '../../wire/wire-types.ts';
import type { HostContext } from '../../host-context.ts';
import type { RequestDeps } from '../../request/request-deps.ts';
import { computeRequestOf, resolveRequest, type RequestTarget } from '../../request/specimen-request.ts';
import { bodyOf, PARAMS_OBJECT, ROOM_ID } from '../route-inputs.ts';

/** The body of either `/start`: parameter values by name and the room. */
export interface StartBody {
  params?: Record<string, unknown>;
  room_id?: string | null;
}

/** Its schema, declared by both routes. */
export const START_BODY = bodyOf({ params: PARAMS_OBJECT, room_id: ROOM_ID });

/** What either answers: the job (`StartResponse`); `done` at once on a room cache hit. */
export const START_REPLY = {
  200: {
    type: 'object',
    required: ['job_id', 'status'],
    properties: {
      job_id: { type: 'string', description: 'The job: its progress, events, result and DELETE are under /api/jobs/{id}' },
      status: { type: 'string', enum: ['running', 'done', 'error'], description: '`done` at once when the room cache held the result' },
    },
  },
};

/** What starting a job reads from its host. */
export type StartDeps = RequestDeps & Pick<HostContext, 'jobs'>;

/** Resolves `body` for `target` (400s name the parameter) and starts the job computing it. */
export async function startJob(ctx: StartDeps, target: RequestTarget, body: StartBody): Promise<StartResponse> {
  const resolved = await resolveRequest(ctx, { target, params: { named: body.params ?? {} }, room: body.room_id });
  // A room cache hit is a job already done in the start response, on either route.
  return ctx.jobs.start({ ...computeRequestOf(resolved), specimenId: resolved.record?.id ?? null });
}
