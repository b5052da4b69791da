/**
 * @module routes-rooms
 * Rooms as shared workspaces. `PUT /api/rooms/{room_id}/entry` with `{"specimen": id}` or
 * `{"function": name}` (and `params`) makes that the room's entry, computed as `/data` would
 * (a static specimen is shown as it is); followers get the `result` event. `GET` answers the
 * entry (`null` when the room shows nothing). `PUT /api/rooms/{room_id}/view` changes the
 * room's shared view (window, colour map, opacity, mode, camera) and sends the `view` event;
 * `GET` answers it. `GET /api/colormaps` lists the colour maps a view or a layer may name.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { specimenType } from '../../registry/specimen-functions.ts';
import { computeForRoom, type RoomRequestDeps } from '../../rooms/service/room-request.ts';
import { listColormaps } from '../../wire/colormaps.ts';
import { checkViewChange, VIEW_MODES } from '../../rooms/room-view.ts';
import { roomOf } from '../request-input.ts';
import { bodyOf, PARAMS_OBJECT, ROOM_PARAMS, type RoomParams } from '../route-inputs.ts';

type EntryBody = { specimen?: string; function?: string; params?: Record<string, unknown> };

const ENTRY_BODY = bodyOf({
  specimen: { type: 'string', description: 'A specimen id (static or dynamic)' },
  function: { type: 'string', description: 'A function name (instead of a specimen)' },
  params: PARAMS_OBJECT,
});
/** Only its shape is declared: the route checks the settings itself (rooms/room-view.ts), so each detail names its setting. */
const VIEW_BODY = {
  type: 'object',
  description: `Any of window ([lo, hi]), colormap (a name), opacity (0..1), mode (${VIEW_MODES.join(', ')}), camera ({position, target, up}: three ` +
    `numbers each); null removes a setting`,
};

const COLORMAPS_REPLY = {
  200: {
    type: 'object',
    required: ['colormaps'],
    properties: {
      colormaps: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'categorical'],
          properties: { name: { type: 'string' }, categorical: { type: 'boolean', description: 'A map of categories (label ids), not a scale of values' } },
        },
      },
    },
  },
};

/** JSON `null` as the whole answer (fastify would send an empty body). */
function sendEntry(reply: FastifyReply, entry: unknown): FastifyReply {
  if (entry !== null) return reply.send(entry);
  return reply.type('application/json; charset=utf-8').send('null');
}

/** What the room routes read from their host. */
export type RoomDeps = RoomRequestDeps & Pick<HostContext, 'rooms'>;

export async function roomRoutes(app: FastifyInstance, { ctx }: { ctx: RoomDeps }): Promise<void> {
  const rooms = ctx.rooms;

  app.get(
    '/api/colormaps',
    {
      schema: {
        summary: 'The colour maps a room view or a layer may name',
        description: 'Any other name in a view or a layer is a 400 that lists these. glasbey is categorical (labels); the others are continuous.',
        response: COLORMAPS_REPLY,
      },
    },
    async () => ({ colormaps: listColormaps() }),
  );

  app.get<RoomParams>(
    '/api/rooms/:room_id/entry',
    { schema: { summary: "A room's entry (null when it shows nothing)", params: ROOM_PARAMS } },
    async (request, reply) => sendEntry(reply, await rooms.entry(roomOf(ctx, request.params.room_id))),
  );

  app.put<RoomParams & { Body: EntryBody }>(
    '/api/rooms/:room_id/entry',
    {
      schema: {
        summary: "Show a specimen (or a function's result) to everyone in the room",
        description: 'Body: {"specimen": id} or {"function": name}, with "params". Computed as /data would; the room gets the result event. Answers the entry.',
        params: ROOM_PARAMS,
        body: ENTRY_BODY,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const body = request.body;
      const extra = Object.keys(body).find((key) => key !== 'specimen' && key !== 'function' && key !== 'params');
      if (extra !== undefined) throw createHostError('SPC_ERR_ROOM_ENTRY_INVALID', `unknown field '${extra}' (fields: specimen or function, params)`);
      const target = await computeForRoom(ctx, roomId, body);
      if (target.kind === 'static') return sendEntry(reply, await rooms.showStatic(roomId, target.record.id, specimenType(ctx.functions, target.record)));
      return sendEntry(reply, await rooms.computed(roomId));
    },
  );

  app.get<RoomParams>('/api/rooms/:room_id/view', { schema: { summary: "A room's shared view", params: ROOM_PARAMS } }, async (request) =>
    rooms.view(roomOf(ctx, request.params.room_id)),
  );

  app.put<RoomParams & { Body: unknown }>(
    '/api/rooms/:room_id/view',
    {
      schema: {
        summary: "Change a room's shared view",
        description:
          'Any of window [lo, hi], colormap, opacity (0..1), mode (slices, volume, surface, points), camera {position, target, up}; null removes a ' +
          'setting. Merged into the view, sent as the view event; answers the view.',
        params: ROOM_PARAMS,
        body: VIEW_BODY,
      },
    },
    async (request) => rooms.changeView(roomOf(ctx, request.params.room_id), checkViewChange(request.body)),
  );
}
