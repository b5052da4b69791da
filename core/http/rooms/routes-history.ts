/**
 * @module routes-history
 * A room's history over HTTP: `GET /api/rooms/{room_id}/log` (its changes after a seq, a page
 * at a time) and `/api/rooms/{room_id}/replay` (another room's log played into this one:
 * POST to play, jump or steer, GET where it is, DELETE to stop it).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import type { Replays } from '../../history/replays.ts';
import { pageLimit } from '../../history/room-log-store.ts';
import { LogPages } from '../../history/log-pages.ts';
import { sendShared } from '../send-shared.ts';
import { pageQuery, roomOf } from '../request-input.ts';
import { queryOf, ROOM_PARAMS } from '../route-inputs.ts';
import { checkReplayAsk } from '../../history/replay-request.ts';
import type { RoomUse } from '../../people/room-access.ts';

export type HistoryRouteDeps = Pick<HostContext, 'history' | 'options'> & { replays: Replays };

const LOG_SCHEMA = {
  summary: 'A room’s log: every change, in one order',
  description:
    'The entries with a seq above `since` (a whole number from 0; absent: from the first kept), oldest first, ' +
    'at most `limit` (default 1000, at most 10000 answered). ' +
    'Each entry is `{seq, ts (host milliseconds), by, type, ...the change}`, type one of entry, view, scene, layer, annotation, snapshot, access, replay. ' +
    '`next_since` reads on; `more` says whether entries after this page are already there; `last_seq` is the room’s newest seq.',
  operationId: 'room_log',
  params: ROOM_PARAMS,
  querystring: queryOf({ since: { type: 'string' }, limit: { type: 'string' } }),
};

const REPLAY_SCHEMA = {
  summary: 'Play another room’s log into this room, set it to another room’s state at a moment, or steer the replay playing',
  description:
    '`{"from", "since"?, "until"?, "speed"? (0.5 to 4, default 1)}`: the room is set to `from`’s state at `since` (empty from the start), ' +
    'then each later entry up to `until` is written at its original offset over `speed`; 202 with the replay’s status. ' +
    '`{"from", "at": ts}`: the room is set to the state `from` had at `at` (host ms); 200. ' +
    '`{"pause": true|false}`, `{"seek": ts}`, `{"speed": x}` (without `from`): steer the replay playing into this room; 404 when none is. ' +
    'Followers of the room see every write as an ordinary change.',
  operationId: 'room_replay',
  params: ROOM_PARAMS,
};

/**
 * The rooms a replay uses: it writes the room it plays into, and reads the room it plays from,
 * as whoever asks it (one who may not read that room is told it is not there).
 */
function replayRooms(request: FastifyRequest, defaultRoom: string): RoomUse[] {
  const into: RoomUse = { room: (request.params as { room_id: string }).room_id || defaultRoom, want: 'write' };
  const from = (request.body as { from?: unknown } | null | undefined)?.from;
  return typeof from === 'string' && from !== '' ? [into, { room: from, want: 'read' }] : [into];
}

export async function historyRoutes(app: FastifyInstance, { ctx }: { ctx: HistoryRouteDeps }): Promise<void> {
  const pages = new LogPages(ctx.history.store);
  app.get<{ Params: { room_id: string }; Querystring: { since?: string; limit?: string } }>(
    '/api/rooms/:room_id/log',
    { schema: LOG_SCHEMA },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const { since, limit } = pageQuery(request.query, 'entry');
      return sendShared(reply.type('application/json; charset=utf-8'), await pages.page(roomId, since, pageLimit(limit)));
    },
  );

  const replayRoute = { schema: REPLAY_SCHEMA, config: { roomAccess: replayRooms } };
  app.post<{ Params: { room_id: string }; Body: unknown }>('/api/rooms/:room_id/replay', replayRoute, async (request, reply) => {
    const roomId = roomOf(ctx, request.params.room_id);
    const answer = await ctx.replays.ask(roomId, checkReplayAsk(request.body, roomId));
    return reply.code(answer.status).send(answer.body);
  });
  app.get<{ Params: { room_id: string } }>(
    '/api/rooms/:room_id/replay',
    { schema: { summary: 'The replay playing into a room', operationId: 'room_replay_status', params: ROOM_PARAMS } },
    async (request) => ctx.replays.status(roomOf(ctx, request.params.room_id)),
  );
  app.delete<{ Params: { room_id: string } }>(
    '/api/rooms/:room_id/replay',
    { schema: { summary: 'Stop the replay playing into a room (the room stays as it is)', operationId: 'room_replay_stop', params: ROOM_PARAMS } },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      if (!ctx.replays.stop(roomId)) throw createHostError('SPC_ERR_REPLAY_NOT_FOUND', roomId);
      return reply.code(204).send();
    },
  );
}
