/**
 * @module job-tools
 * The agents' tools for work longer than a client waits on one call, and the room's picture:
 * `start_job` answers a job id at once, `job_status` its status and latest progress (and, once
 * done, the summary `compute` gives, never the bytes), `cancel_job` stops a running one;
 * `room_image` answers a PNG of what a room shows. Each row is checked against `McpTool`.
 */
import { createHostError } from '../errors.ts';
import { computeRequestOf } from '../request/specimen-request.ts';
import { summarizeResult } from '../results/result-summary.ts';
import { pictureSide, PICTURE_SIDE, roomImage } from '../exports/room-image.ts';
import { resolveRoomRequest } from '../rooms/service/room-request.ts';
import { ToolImage, type McpTool, type ToolArgs, type ToolCallContext } from './mcp-tool.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

const JOB_ID = { type: 'string', description: 'The job id start_job answered' };

function jobIdArg(args: ToolArgs): string {
  if (typeof args.job_id !== 'string' || args.job_id === '') throw createHostError('SPC_ERR_BAD_REQUEST', 'job_id (the id start_job answered) is required');
  return args.job_id;
}

async function startJob(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const room = roomArg(call, args);
  const asked = await resolveRoomRequest(ctx, room, args);
  if (asked.kind === 'static') throw createHostError('SPC_ERR_STATIC_SPECIMEN_START', asked.record.id);
  const { resolved } = asked;
  const started = await ctx.jobs.start({ ...computeRequestOf(resolved), specimenId: resolved.record?.id ?? null });
  return { ...started, room, specimen_id: resolved.record?.id ?? null, function_name: resolved.entry.name, params: resolved.values };
}

async function jobStatus(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const id = jobIdArg(args);
  const { status, messages, error } = await ctx.jobs.progress(id, -1);
  const last = messages.at(-1);
  const answer: Record<string, unknown> = { job_id: id, status, progress: last ? { text: last.text, fraction: last.fraction ?? null } : null, error };
  if (status !== 'done') return answer;
  const { result, functionName } = await ctx.jobs.result(id);
  return {
    ...answer,
    result: {
      function_name: functionName,
      ...summarizeResult(result),
      result_id: await ctx.resultIds.of(result),
      data_url: `${call.baseUrl}/api/jobs/${id}/result`,
    },
  };
}

async function cancelJob(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const id = jobIdArg(args);
  const { status } = await ctx.jobs.progress(id, Number.MAX_SAFE_INTEGER);
  if (status !== 'running') throw createHostError('SPC_ERR_JOB_ENDED', id, status);
  if (!(await ctx.jobs.cancel(id))) throw createHostError('SPC_ERR_JOB_NOT_FOUND', id);
  return { job_id: id, status: 'cancelled' };
}

async function roomImageTool(call: ToolCallContext, args: ToolArgs): Promise<ToolImage> {
  const room = roomArg(call, args);
  const [w, h] = [pictureSide('w', args.w), pictureSide('h', args.h)];
  return new ToolImage(await roomImage(call.ctx, room, w, h), { room, w, h, mime_type: 'image/png' });
}

const SIDE = (what: string) => ({ type: 'integer', minimum: 1, maximum: PICTURE_SIDE.max, description: `${what} in pixels (default ${PICTURE_SIDE.default})` });

export const JOB_TOOLS = {
  start_job: {
    description:
      'Starts computing a specimen or function with parameters in a room, for work longer than one call may wait: answers {job_id, status} at ' +
      'once. Follow it with job_status, stop it with cancel_job; when it is done the room shows the result to everyone following it.',
    input: ({ target, room }) => objectSchema({ ...target, room }),
    call: startJob,
  },
  job_status: {
    description:
      "A job's status (running, done, error), its latest progress {text, fraction} and its error; once done, the result's summary as compute " +
      'gives it (type, sizes, value range or bounds, result_id, data_url), never the data. Call it again until the status is not running.',
    input: () => objectSchema({ job_id: JOB_ID }, ['job_id']),
    call: jobStatus,
  },
  cancel_job: {
    description: 'Cancels a running job: it ends with status error, error "cancelled". A job that has already ended or an unknown id is an error.',
    input: () => objectSchema({ job_id: JOB_ID }, ['job_id']),
    call: cancelJob,
  },
  room_image: {
    description:
      "A picture (PNG image) of what a room shows, drawn on the host as the page draws it (each layer's mode and colours, the room's camera, " +
      'its marks and a scale bar). ' +
      'An error when the room shows nothing yet.',
    input: ({ room }) => objectSchema({ room, w: SIDE('Width'), h: SIDE('Height') }),
    call: roomImageTool,
  },
} satisfies Record<string, McpTool>;
