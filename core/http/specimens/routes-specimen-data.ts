/**
 * @module routes-specimen-data
 * GET and POST /api/specimens/{id}/data. Static specimens: the file (or a .npy volume as an
 * envelope). Dynamic ones: the room-cached result of the function, as an envelope for meshes
 * and volumes and as the JSON typed result for point clouds and images.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HostContext } from '../../host-context.ts';
import { specimenOr404 } from '../../registry/specimen-functions.ts';
import { formatEncoder } from '../../delivery/formats.ts';
import { deliveredType, type DeliveryOptions } from '../../delivery/delivery-options.ts';
import { sendStaticDelivery, type StaticDeliveryDeps } from './send-static-delivery.ts';
import { sendRemoteDelivery } from './send-remote-delivery.ts';
import { parseDeliveryObject, parseDeliveryQuery } from '../../delivery/parse-delivery.ts';
import type { GivenParams } from '../../request/given-params.ts';
import type { RequestDeps } from '../../request/request-deps.ts';
import { computeRequestOf, resolveRequestNow } from '../../request/specimen-request.ts';
import { bodyOf, DELIVERY_OBJECT, idParams, PARAMS_OBJECT, PARAMS_QUERY, queryOf, ROOM_ID } from '../route-inputs.ts';
import { sendComputed, type ComputedReplyDeps } from '../reply-computed.ts';
import { headOnly } from '../blob-reply.ts';
import { FOLLOWER_HEADER } from '../../wire/follower-header.ts';
import { actingMay } from '../../events/acting-user.ts';
import { readerRequest } from '../../request/reader-request.ts';

type IdParams = { Params: { id: string } };
type DataQuery = { params?: string; room_id?: string } & Record<string, unknown>;
type DataBody = { params?: Record<string, unknown>; room_id?: string | null; delivery?: Record<string, unknown> | null };

/** Every other query parameter of GET is a delivery option (parse-delivery.ts). */
const GET_SCHEMA = { params: idParams('id'), querystring: queryOf({ params: PARAMS_QUERY, room_id: ROOM_ID }) };
const POST_SCHEMA = { params: idParams('id'), body: bodyOf({ params: PARAMS_OBJECT, room_id: ROOM_ID, delivery: DELIVERY_OBJECT }) };

/** Where a request's parameters and delivery options come from (GET's query, POST's body). */
interface DataAsk {
  id: string;
  params: GivenParams;
  room: string | null | undefined;
  /** Parsed after the specimen is found and before anything else is checked. */
  delivery: () => DeliveryOptions;
}

async function serveData(deps: DataDeps, request: FastifyRequest, reply: FastifyReply, ask: DataAsk): Promise<FastifyReply> {
  const remote = deps.remotes.specimen(ask.id);
  if (remote) return sendRemoteDelivery(deps, reply, remote, ask.delivery());
  const record = specimenOr404(deps.catalog, ask.id);
  const asked = ask.delivery();
  if (!record.is_dynamic) return sendStaticDelivery(deps, reply, record, asked);
  const delivery = { asked, userAgent: request.headers['user-agent'] };
  // A function without inputs is resolved in this turn (most requests: no promise on the way).
  const resolving = resolveRequestNow(deps, { target: { specimen: record }, params: ask.params, room: ask.room, delivery });
  const resolved = resolving instanceof Promise ? await resolving : resolving;
  // HEAD checks the specimen, parameters and room, and says what GET would send, without computing
  // (no Content-Length: the size is not known before computing).
  if (request.method === 'HEAD') {
    const names = { baseName: record.id, envelopeMediaType: deps.options.envelopeMediaType };
    const mediaType = formatEncoder(deliveredType(resolved.entry.return_type, resolved.delivery), resolved.delivery.format).mediaType(names);
    return headOnly(reply, 200, { 'content-type': mediaType });
  }
  // A follower catching up on the room's entry reads it without asking the room for it.
  const echo = request.headers[FOLLOWER_HEADER] !== undefined;
  const computed = computeRequestOf(resolved, echo ? { echo } : undefined);
  // A GET is a read: from someone who may not write the room, it leaves the room as it was.
  const writes = request.method === 'GET' ? actingMay(resolved.roomId, 'write') : true;
  const sent = (writes instanceof Promise ? await writes : writes) ? computed : await readerRequest(deps.results, computed);
  return sendComputed(deps, reply, sent, resolved.delivery, record.id);
}

/** What the data routes read from their host. */
export type DataDeps = RequestDeps & StaticDeliveryDeps & ComputedReplyDeps & Pick<HostContext, 'catalog' | 'results' | 'remotes'>;

export async function specimenDataRoutes(app: FastifyInstance, { ctx }: { ctx: DataDeps }): Promise<void> {
  // Deliveries compress themselves (once per variant, with Content-Length): the on-the-fly
  // compression of other routes must not touch them.
  app.get<IdParams & { Querystring: DataQuery }>('/api/specimens/:id/data', { compress: false, schema: GET_SCHEMA }, async (request, reply) => {
    const { query } = request;
    return serveData(ctx, request, reply, {
      id: request.params.id,
      params: { query: query.params },
      room: query.room_id,
      delivery: () => parseDeliveryQuery(query),
    });
  });

  app.post<IdParams & { Body: DataBody }>('/api/specimens/:id/data', { compress: false, schema: POST_SCHEMA }, async (request, reply) => {
    const body = request.body;
    return serveData(ctx, request, reply, {
      id: request.params.id,
      params: { named: body.params ?? {} },
      room: body.room_id,
      delivery: () => parseDeliveryObject(body.delivery),
    });
  });
}
