/**
 * @module routes-specimen-data
 * GET and POST /api/specimens/{id}/data. Static specimens: the file (or a .npy volume as an
 * envelope). Dynamic ones: the room-cached result of the function, as an envelope for meshes
 * and volumes and as the JSON typed result for point clouds and images.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import { sendStaticData } from './send-opened.ts';
import { functionOfSpecimen, specimenOr404, specimenSchema, specimenValues, type HostContext } from '../host-context.ts';
import { checkInputs } from '../inputs/check-inputs.ts';
import { expectParamsObject, parseParamsQuery } from '../params/parse-params.ts';
import { expectBody, roomOf } from './request-input.ts';
import { sendEnvelope, sendEnvelopeAsItArrives, toEnvelope } from './reply-envelope.ts';
import { sendJsonResult } from './reply-json-result.ts';
import { abortOnDisconnect } from './abort-on-disconnect.ts';

type IdParams = { Params: { id: string } };

/** Headers only, without a Content-Length: the size is not known before computing. */
function answerHead(reply: FastifyReply, mediaType: string): FastifyReply {
  reply.hijack();
  reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': mediaType });
  reply.raw.end();
  return reply;
}

function dataMediaType(ctx: HostContext, returnType: string): string {
  return returnType === 'mesh' || returnType === 'volume' ? ctx.options.envelopeMediaType : 'application/json; charset=utf-8';
}

async function serveData(ctx: HostContext, request: FastifyRequest, reply: FastifyReply, id: string, rawParams: () => Record<string, unknown>, rawRoom: unknown): Promise<FastifyReply> {
  const record = specimenOr404(ctx, id);
  if (!record.is_dynamic) return sendStaticData(reply, record, { envelopeMediaType: ctx.options.envelopeMediaType });
  const entry = functionOfSpecimen(ctx, record);
  const { values, inputs } = await checkInputs(ctx, entry, specimenSchema(ctx, record), specimenValues(ctx, record, entry, rawParams()));
  const roomId = roomOf(ctx, rawRoom);
  // HEAD checks the specimen, parameters and room, and says what GET would send, without computing.
  if (request.method === 'HEAD') return answerHead(reply, dataMediaType(ctx, entry.return_type));
  const computeRequest = { entry, values, ...(inputs ? { inputs } : {}), roomId, specimenId: record.id, signal: abortOnDisconnect(request, reply) };
  // Envelopes can follow a relayed result's bytes as they arrive; JSON results need them all.
  const streams = entry.return_type === 'mesh' || entry.return_type === 'volume';
  const { result, arriving } = streams ? await ctx.results.open(computeRequest) : { result: await ctx.results.compute(computeRequest), arriving: null };
  const envelope = toEnvelope(result);
  if (envelope && arriving) return sendEnvelopeAsItArrives(reply, envelope, ctx.options.envelopeMediaType, arriving);
  if (envelope) return sendEnvelope(reply, envelope, ctx.options.envelopeMediaType);
  return sendJsonResult(ctx, reply, result, entry.name);
}

export async function specimenDataRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;

  app.get<IdParams & { Querystring: { params?: unknown; room_id?: unknown } }>('/api/specimens/:id/data', async (request, reply) =>
    serveData(ctx, request, reply, request.params.id, () => parseParamsQuery(request.query.params, ctx.options.maxParamsLength), request.query.room_id),
  );

  app.post<IdParams>('/api/specimens/:id/data', async (request, reply) => {
    const body = expectBody(request.body);
    return serveData(ctx, request, reply, request.params.id, () => expectParamsObject(body.params), body.room_id);
  });
}
