/**
 * @module worker-handlers
 * How a worker answers its relay's requests, with its own host logic: `invoke` through its
 * result service (its room cache and in-flight sharing apply, progress goes back as events,
 * the result as a result frame; a relay's job is kept here under the same id),
 * `thumbnail` and `data` opened from its own catalog (the same openers its routes use), and
 * `reload`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createHostError } from '../errors.ts';
import { openStaticData } from '../catalog/open-static-data.ts';
import { openThumbnail } from '../catalog/open-thumbnail.ts';
import { describeOpened } from '../catalog/opened-body.ts';
import type { HostContext } from '../host-context.ts';
import { specimenOr404 } from '../registry/specimen-functions.ts';
import type { JobRef, ProgressUpdate } from '../invoke/invoker.ts';
import type { HandlerContext, HandlerReply, RequestHandler } from './channel-types.ts';
import type { LocalRuns } from './local-runs.ts';
import { encodeResultFrame } from '../results/result-frame.ts';

export interface WorkerHandlerDeps {
  ctx: HostContext;
  /** This host's own result service and job store, as far as relayed runs need them. */
  local: LocalRuns;
  log: FastifyBaseLogger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The relay's job this run belongs to, when it names one this worker can keep under the same
 * id (a UUID not in use here); its specimen when this worker has it.
 */
function jobOf(deps: WorkerHandlerDeps, value: unknown): JobRef | null {
  if (!value || typeof value !== 'object') return null;
  const { id, specimen_id: specimenId } = value as { id?: unknown; specimen_id?: unknown };
  if (typeof id !== 'string' || !UUID.test(id) || !deps.local.jobIdFree(id)) return null;
  return { id, specimenId: typeof specimenId === 'string' && deps.ctx.catalog.get(specimenId) ? specimenId : null };
}

async function invoke(deps: WorkerHandlerDeps, body: Record<string, unknown>, hc: HandlerContext): Promise<HandlerReply> {
  const { ctx } = deps;
  const name = body.function;
  if (typeof name !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', 'invoke needs a function name');
  const entry = ctx.functions.get(name);
  if (!entry || entry.source.kind === 'remote') throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
  const values = body.values && typeof body.values === 'object' && !Array.isArray(body.values) ? (body.values as Record<string, unknown>) : {};
  const roomId = typeof body.room_id === 'string' ? body.room_id : ctx.options.defaultRoomId;
  hc.signal.addEventListener('abort', () => deps.log.info(`federation: the relay cancelled ${name} in room ${roomId}`), { once: true });
  const request = {
    entry,
    values,
    roomId,
    signal: hc.signal,
    onProgress: (update: ProgressUpdate) => hc.emit({ text: update.text, fraction: update.fraction, ts: update.ts }),
  };
  const job = jobOf(deps, body.job);
  const result = await deps.local.run(request, job && { id: job.id, meta: { specimenId: job.specimenId, functionName: name, roomId } });
  const { header, blocks } = encodeResultFrame(result);
  return { body: { header }, payload: { byteLength: header.byteLength, blocks } };
}

async function openOwn(deps: WorkerHandlerDeps, what: 'thumbnail' | 'data', body: Record<string, unknown>, hc: HandlerContext): Promise<HandlerReply> {
  const id = body.id;
  if (typeof id !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', `${what} needs a specimen id`);
  const record = specimenOr404(deps.ctx.catalog, id);
  const request = { signal: hc.signal };
  const opened =
    what === 'thumbnail'
      ? await openThumbnail(record, request)
      : await openStaticData(record, request, { envelopeMediaType: deps.ctx.options.envelopeMediaType });
  const { contentType, length } = describeOpened(opened);
  const reply: HandlerReply = { body: { content_type: contentType, file_name: opened.fileName } };
  const content = opened.body ?? Buffer.alloc(0);
  if (Buffer.isBuffer(content)) {
    reply.payload = { byteLength: content.length, blocks: [content] };
    return reply;
  }
  if (length !== null) {
    reply.payload = { byteLength: length, blocks: content };
    return reply;
  }
  // No length known (not the case for this host's own files): buffer it.
  const chunks: Buffer[] = [];
  for await (const chunk of content) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  reply.payload = { byteLength: bytes.length, blocks: [bytes] };
  return reply;
}

export function workerHandlers(deps: WorkerHandlerDeps): RequestHandler {
  return async (op, body, hc) => {
    switch (op) {
      case 'invoke':
        return invoke(deps, body, hc);
      case 'thumbnail':
      case 'data':
        return openOwn(deps, op, body, hc);
      case 'reload':
        // ctx.reload on a worker re-sends the registration itself (install-federation.ts).
        return { body: { ...(await deps.ctx.reload()) } };
      default:
        throw createHostError('SPC_ERR_BAD_REQUEST', `unknown federation request '${op}'`);
    }
  };
}
