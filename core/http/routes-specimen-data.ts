/**
 * @module routes-specimen-data
 * GET and POST /api/specimens/{id}/data. Static specimens: the file (or a .npy volume as an
 * envelope). Dynamic ones: the room-cached result of the function, as an envelope for meshes
 * and volumes and as the JSON typed result for point clouds and images.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders } from 'node:http';
import type { HostContext } from '../host-context.ts';
import { functionOfSpecimen, specimenOr404, specimenQueryValues, specimenSchema, specimenValues } from '../registry/specimen-functions.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { checkInputs } from '../inputs/check-inputs.ts';
import { isEmptyDelivery } from '../delivery/delivery-options.ts';
import { formatEncoder } from '../delivery/formats.ts';
import type { DeliveryOptions } from '../delivery/delivery-options.ts';
import { sendDelivery } from './reply-delivery.ts';
import { sendStaticDelivery } from './send-static-delivery.ts';
import { parseDeliveryObject, parseDeliveryQuery } from '../delivery/parse-delivery.ts';
import { resolveDelivery } from '../delivery/request-delivery.ts';
import { roomOf } from './request-input.ts';
import { bodyOf, DELIVERY_OBJECT, idParams, PARAMS_OBJECT, PARAMS_QUERY, queryOf, ROOM_ID } from './route-inputs.ts';
import { sendEnvelopeAsItArrives, toEnvelope } from './reply-envelope.ts';
import { DisconnectSignal } from './abort-on-disconnect.ts';
import { RESULT_ID_HEADER } from '../serving/result-ids.ts';

type IdParams = { Params: { id: string } };
type DataQuery = { params?: string; room_id?: string } & Record<string, unknown>;
type DataBody = { params?: Record<string, unknown>; room_id?: string | null; delivery?: Record<string, unknown> | null };

/** Every other query parameter of GET is a delivery option (parse-delivery.ts). */
const GET_SCHEMA = { params: idParams('id'), querystring: queryOf({ params: PARAMS_QUERY, room_id: ROOM_ID }) };
const POST_SCHEMA = { params: idParams('id'), body: bodyOf({ params: PARAMS_OBJECT, room_id: ROOM_ID, delivery: DELIVERY_OBJECT }) };

/** Headers only, without a Content-Length: the size is not known before computing. */
function answerHead(reply: FastifyReply, mediaType: string): FastifyReply {
  reply.hijack();
  reply.raw.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': mediaType });
  reply.raw.end();
  return reply;
}

async function serveData(
  ctx: HostContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  checkedValues: (record: SpecimenRecord, entry: FunctionEntry) => Record<string, unknown>,
  rawRoom: string | null | undefined,
  rawDelivery: () => DeliveryOptions,
): Promise<FastifyReply> {
  const record = specimenOr404(ctx.catalog, id);
  const asked = rawDelivery();
  if (!record.is_dynamic) return sendStaticDelivery(ctx, reply, record, asked);
  const entry = functionOfSpecimen(ctx.functions, record);
  const { values, inputs } = await checkInputs(ctx, entry, specimenSchema(ctx.functions, record), checkedValues(record, entry));
  const delivery = resolveDelivery(asked, entry.return_type, request.headers['user-agent'], ctx.options);
  const roomId = roomOf(ctx, rawRoom);
  // HEAD checks the specimen, parameters and room, and says what GET would send, without computing.
  if (request.method === 'HEAD') {
    const names = { baseName: record.id, envelopeMediaType: ctx.options.envelopeMediaType };
    return answerHead(reply, formatEncoder(entry.return_type, delivery.format).mediaType(names));
  }
  // The signal is made only if something waits (a miss): a hit never reads it.
  const disconnect = new DisconnectSignal(request, reply);
  const computeRequest = { entry, values, ...(inputs ? { inputs } : {}), roomId, specimenId: record.id, get signal() { return disconnect.signal; } };
  // Envelopes can follow a relayed result's bytes as they arrive; JSON results need them all.
  const streams = entry.return_type === 'mesh' || entry.return_type === 'volume';
  const { result, arriving } = streams ? await ctx.results.open(computeRequest) : { result: await ctx.results.compute(computeRequest), arriving: null };
  // A relayed result still arriving streams to its first readers as it comes, uncompressed
  // (waiting for every byte to compress them would cost more than it saves); readers once it
  // is in get the compressed variant. A delivery that shapes it waits for every byte. The
  // stream goes without X-Result-Id: the bytes the id hashes are not all in yet.
  if (arriving && isEmptyDelivery(delivery)) {
    reply.header('vary', 'Accept-Encoding');
    return sendEnvelopeAsItArrives(reply, toEnvelope(result)!, ctx.options.envelopeMediaType, arriving);
  }
  // Shaping or compressing needs every byte: wait for the rest of a relayed result.
  if (arriving) for (const part of toEnvelope(result)!.parts) await arriving.arrived(part, part.byteLength);
  const resultId = await ctx.resultIds.of(result);
  reply.header(RESULT_ID_HEADER, resultId);
  return sendDelivery(ctx, reply, result, delivery, record.id, resultId);
}

export async function specimenDataRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;

  // Deliveries compress themselves (once per variant, with Content-Length): the on-the-fly
  // compression of other routes must not touch them.
  app.get<IdParams & { Querystring: DataQuery }>('/api/specimens/:id/data', { compress: false, schema: GET_SCHEMA }, async (request, reply) =>
    serveData(
      ctx,
      request,
      reply,
      request.params.id,
      (record, entry) => specimenQueryValues(ctx.functions, record, entry, request.query.params, ctx.options.maxParamsLength),
      request.query.room_id,
      () => parseDeliveryQuery(request.query),
    ),
  );

  app.post<IdParams & { Body: DataBody }>('/api/specimens/:id/data', { compress: false, schema: POST_SCHEMA }, async (request, reply) => {
    const body = request.body;
    return serveData(ctx, request, reply, request.params.id, (record, entry) => specimenValues(ctx.functions, record, entry, body.params ?? {}), body.room_id, () => parseDeliveryObject(body.delivery));
  });
}
