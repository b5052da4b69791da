/**
 * @module routes-scenes
 * A room's scene: `GET/PUT /api/rooms/{room_id}/scene` (PUT with `If-Match: "<version>"`
 * answers 412 when another writer came first, and `{"snapshot": id}` restores one, to those
 * who may read one of the rooms it was taken of: to others it is an unknown snapshot, 404),
 * `POST /api/rooms/{room_id}/layers` (`?index=N`), `PATCH` and `DELETE
 * /api/rooms/{room_id}/layers/{layer_id}`, and `GET .../layers/{layer_id}/data`: the layer's
 * result as `/data` sends it, computed again when its cache slot let it go. Bodies are checked
 * field by field by the scene's own checks (scenes/check-layer.ts), so every 400 names the
 * field's path. Writes pass the guards every write passes (cross-site and foreign-Host 403).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RoomScene, SceneLayer } from '../../wire/scene-types.ts';
import type { RoomsReader } from '../people/install-people.ts';
import { requestIdentity } from '../../people/request-user.ts';
import type { RoomSnapshots } from '../../snapshots/service/room-snapshots.ts';
import { parseDeliveryQuery } from '../../delivery/parse-delivery.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { LAYER_ID_PATTERN } from '../../scenes/scene-limits.ts';
import { computeRequestOf } from '../../request/specimen-request.ts';
import { expectedVersion } from '../../scenes/check-layer.ts';
import { sendComputed, type ComputedReplyDeps } from '../reply-computed.ts';
import { sendDelivery } from '../reply-delivery.ts';
import { resolveDelivery } from '../../delivery/request-delivery.ts';
import { RESULT_ID_HEADER } from '../../serving/result-ids.ts';
import { roomOf } from '../request-input.ts';
import { ifMatchHeader, ROOM_PARAMS, roomItemParams, type RoomParams } from '../route-inputs.ts';
import { noneMatch } from '../revalidate.ts';
import { sendStaticDelivery, type StaticDeliveryDeps } from '../specimens/send-static-delivery.ts';

type LayerParams = { Params: { room_id: string; layer_id: string } };

const LAYER_PARAMS = roomItemParams('layer_id', { type: 'string' });
const IF_MATCH = ifMatchHeader('The scene version the change is made against, "<version>": 412 when the scene has moved on');

const LAYER_FIELDS =
  '`source` ({"specimen": id} or {"function": name}, with `params`, and optionally `bind` {param: {label}}), ' +
  '`id` ([A-Za-z0-9_.-]{1,64}; made by the host when absent), `kind` (image, labels, mesh, points; from the result when absent), `name`, `visible`, ' +
  '`opacity` (0..1), `blending` (translucent, additive, opaque, maximum, minimum), `colormap`, `window` [lo, hi], `gamma` (> 0), ' +
  '`mode` (slices, volume, surface, points), `affine` (4×4 row-major: 16 numbers or 4 rows of 4), `clip_planes` (up to 4 [a, b, c, d]), ' +
  '`labels` {colors, selected, show}, `t`, `playing`, `channels` [{visible, color, window}]';
/** Only the shape is declared: the scene's checks name each bad field by its path. */
const LAYER_BODY = { type: 'object', description: `A layer: ${LAYER_FIELDS}` };
const SCENE_BODY = { type: 'object', description: '{"layers": [layer, ...] (bottom first, at most 32), "active": layer id} or {"snapshot": id}' };

/** The scene, named by its version: `ETag: "<version>"` is what `If-Match` gives back. */
function sendScene(request: FastifyRequest, reply: FastifyReply, scene: RoomScene): FastifyReply {
  const etag = `"${scene.version}"`;
  reply.header('etag', etag).header('cache-control', 'no-cache');
  if (request.method === 'GET' && noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.send(scene);
}

/** A layer as written, with the scene's version after the write as its ETag (what the next `If-Match` names). */
function sendLayer(reply: FastifyReply, layer: SceneLayer, scene: RoomScene): FastifyReply {
  return reply.header('etag', `"${scene.version}"`).header('cache-control', 'no-cache').send(layer);
}

function layerIdOf(request: FastifyRequest<LayerParams>, roomId: string): string {
  const id = request.params.layer_id;
  if (!LAYER_ID_PATTERN.test(id)) throw createHostError('SPC_ERR_LAYER_NOT_FOUND', id, roomId);
  return id;
}

function indexOf(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^\d{1,6}$/.test(raw)) throw createHostError('SPC_ERR_SCENE_INVALID', 'index', 'must be a position from 0 (the bottom) up');
  return Number(raw);
}

/** What the scene routes read from their host. */
export type SceneRouteDeps = Pick<HostContext, 'scenes' | 'options' | 'catalog'> &
  StaticDeliveryDeps &
  ComputedReplyDeps & { snapshots: Pick<RoomSnapshots, 'restore'> };

export async function sceneRoutes(app: FastifyInstance, opts: { ctx: SceneRouteDeps; readable: RoomsReader }): Promise<void> {
  wholeSceneRoutes(app, opts.ctx, opts.readable);
  layerRoutes(app, opts.ctx);
  layerDataRoute(app, opts.ctx);
}

/** `GET` and `PUT` of a room's whole scene (a snapshot restored into it). */
function wholeSceneRoutes(app: FastifyInstance, ctx: SceneRouteDeps, readable: RoomsReader): void {
  const scenes = ctx.scenes;

  app.get<RoomParams>(
    '/api/rooms/:room_id/scene',
    {
      schema: {
        summary: "A room's scene: its layers bottom first, which one is active (the room's entry), and its version (also the ETag)",
        params: ROOM_PARAMS,
      },
    },
    async (request, reply) => sendScene(request, reply, await scenes.scene(roomOf(ctx, request.params.room_id))),
  );

  app.put<RoomParams & { Body: unknown }>(
    '/api/rooms/:room_id/scene',
    {
      schema: {
        summary: "Replace a room's scene, or restore a snapshot into it",
        description:
          `Body \`{"layers": [...], "active": id}\` (each layer: ${LAYER_FIELDS}) or \`{"snapshot": id}\`. ` +
          'With `If-Match: "<version>"`, a scene that moved on answers 412 and nothing changes. ' +
          'A layer that keeps its id and source keeps its result; the others are computed through the room’s cache. Answers the scene; followers get the ' +
          '`scene` event.',
        params: ROOM_PARAMS,
        headers: IF_MATCH,
        body: SCENE_BODY,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const ifMatch = expectedVersion(request.headers['if-match']);
      const body = request.body as { snapshot?: unknown } | null;
      const restoring = typeof body === 'object' && body !== null && typeof body.snapshot === 'string' && Object.keys(body).length === 1;
      // The snapshot restored is read as its own route reads it: of rooms the request may not read, it is not there.
      const reader = (rooms: readonly string[]) => readable(request, rooms);
      const scene = restoring
        ? await ctx.snapshots.restore(roomId, body.snapshot as string, reader, ifMatch, requestIdentity(request)?.name)
        : await scenes.replace(roomId, request.body, ifMatch);
      return sendScene(request, reply, scene);
    },
  );
}

/** A layer added, changed or removed. */
function layerRoutes(app: FastifyInstance, ctx: SceneRouteDeps): void {
  const scenes = ctx.scenes;
  app.post<RoomParams & { Body: unknown; Querystring: { index?: string } }>(
    '/api/rooms/:room_id/layers',
    {
      schema: {
        summary: 'Add a layer to a room’s scene (on top, or at ?index=N)',
        description: `Body: a layer (${LAYER_FIELDS}). 201 with the layer as stored; its result follows (the \`result\` event names the layer). 409 when ` +
          `its id is taken; 400 past 32 layers.`,
        params: ROOM_PARAMS,
        querystring: { type: 'object', properties: { index: { type: 'string', description: 'Where the layer goes: 0 is the bottom (default: on top)' } } },
        body: LAYER_BODY,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const layer = await scenes.add(roomId, request.body, indexOf(request.query.index));
      return sendLayer(reply.code(201), layer, await scenes.scene(roomId));
    },
  );

  app.patch<LayerParams & { Body: unknown }>(
    '/api/rooms/:room_id/layers/:layer_id',
    {
      schema: {
        summary: 'Change a layer of a room’s scene',
        description: `Merges the fields given (${LAYER_FIELDS}, and "active": true to make it the room’s entry); null takes a display field back to its ` +
          `default; a new source is computed. ` +
          'With `If-Match: "<version>"`, a scene that moved on answers 412 and nothing changes. Answers the layer.',
        params: LAYER_PARAMS,
        headers: IF_MATCH,
        body: LAYER_BODY,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const layer = await scenes.patch(roomId, layerIdOf(request, roomId), request.body, expectedVersion(request.headers['if-match']));
      return sendLayer(reply, layer, await scenes.scene(roomId));
    },
  );

  app.delete<LayerParams>(
    '/api/rooms/:room_id/layers/:layer_id',
    { schema: { summary: 'Remove a layer from a room’s scene (204); its cache slot is freed', params: LAYER_PARAMS } },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      await scenes.remove(roomId, layerIdOf(request, roomId));
      return reply.code(204).send();
    },
  );
}

/** A layer's result, as `/data` sends it. */
function layerDataRoute(app: FastifyInstance, ctx: SceneRouteDeps): void {
  app.get<LayerParams & { Querystring: Record<string, unknown> }>(
    '/api/rooms/:room_id/layers/:layer_id/data',
    {
      compress: false,
      exposeHeadRoute: false,
      schema: {
        summary: 'A layer’s result, as /data sends it (its `result.data_url`)',
        description:
          'Takes the delivery options of /data (format, dtype, max_dim, ...). Taken from the layer’s cache slot, or computed again when the slot let it go.',
        params: LAYER_PARAMS,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const asked = parseDeliveryQuery(request.query);
      const layerId = layerIdOf(request, roomId);
      const userAgent = request.headers['user-agent'];
      const answer = await ctx.scenes.layerAnswer(roomId, layerId, { asked, userAgent });
      // A stale layer shows its last result, as long as the host holds it: its source no longer gives it.
      if ('held' in answer) {
        const { result, resultId } = answer.held;
        const delivery = resolveDelivery(asked, result.type, userAgent, ctx.options);
        return sendDelivery(ctx, reply.header(RESULT_ID_HEADER, resultId), result, delivery, layerId, resultId);
      }
      const resolved = answer.resolved;
      // A file no parser reads goes as it is (a delivery option is a 400 there, as on its own /data).
      if (resolved.kind !== 'computed')
        return sendStaticDelivery(ctx, reply, resolved.record, resolved.segment === undefined ? asked : { ...asked, segment: resolved.segment });
      const request_ = resolved.request;
      return sendComputed(ctx, reply, computeRequestOf(request_), request_.delivery, request_.record?.id ?? request_.entry.name);
    },
  );
}
