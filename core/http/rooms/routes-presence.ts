/**
 * @module routes-presence
 * Who is in a room and where they point: `GET /api/rooms/{room_id}/presence` (the roster) and
 * `WS /api/rooms/{room_id}/live` (poses in, everyone else's poses out; presence/live-hub.ts).
 * A live socket names itself as a follower does (`?name=`, `?kind=`, default headset), or stands
 * for a follower already listed (`?peer=<id>`, the `X-Peer-Id` of its event stream; with `?kind=`
 * that follower is listed again as that kind: a page entering VR is a headset). What it
 * says of itself is checked before the upgrade, so a bad name is a plain 400. A socket whose
 * peer may no longer read the room is closed (1008) by the room's readers (people/room-readers.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { ANONYMOUS, requestIdentity, requestUser } from '../../people/request-user.ts';
import type { RoomReaders } from '../../people/room-readers.ts';
import { checkKind, markExecutor, PEER_KINDS, peerOf } from '../../presence/peer.ts';
import type { LiveIdentity } from '../../presence/presence-service.ts';
import { roomOf } from '../request-input.ts';
import { queryOf, ROOM_PARAMS } from '../route-inputs.ts';

export type PresenceRouteDeps = Pick<HostContext, 'presence' | 'options'>;

type LiveRequest = FastifyRequest<{ Params: { room_id: string }; Querystring: { name?: string; kind?: string; peer?: string } }>;

const LIVE_QUERY = queryOf({
  name: { type: 'string', description: 'The peer’s name when the host knows no user for it (at most 64 characters)' },
  kind: { type: 'string', description: `${PEER_KINDS.join(', ')} (default headset; with peer, the kind that follower is from now on)` },
  peer: { type: 'string', description: 'The id of a follower already listed (its event stream’s X-Peer-Id) this socket carries the poses of' },
});

/**
 * Who the socket is: the listed follower it names (as the `kind` it now says, when it says one:
 * a page that entered VR is a headset from then on), or a new peer.
 */
async function liveIdentity(ctx: PresenceRouteDeps, request: LiveRequest, roomId: string): Promise<LiveIdentity> {
  const fresh = peerOf(requestUser(request), ANONYMOUS, request.query, 'headset');
  if (!request.query.peer) return { peer: fresh, standsFor: false };
  const listed = await ctx.presence.listed(roomId, request.query.peer);
  if (!listed) throw createHostError('SPC_ERR_PRESENCE_INVALID', 'peer', `'${request.query.peer}' is not in room '${roomId}'`);
  const kind = checkKind(request.query.kind, listed.kind);
  return kind === listed.kind ? { peer: listed, standsFor: true } : { peer: { ...listed, kind }, standsFor: true, relisted: true };
}

/** The close a live socket gets when its peer may no longer read the room (a policy's, with the reason). */
export const LIVE_NOT_READABLE = { code: 1008, reason: 'no longer allowed to read this room' } as const;

export async function presenceRoutes(app: FastifyInstance, opts: { ctx: PresenceRouteDeps; readers: Pick<RoomReaders, 'register'> }): Promise<void> {
  const { ctx, readers } = opts;
  app.get<{ Params: { room_id: string } }>(
    '/api/rooms/:room_id/presence',
    {
      schema: {
        summary: 'Who is in a room now',
        description:
          '`{"room_id", "peers": [{id, name, kind, user, since}]}` in the order they joined: every follower of the room’s event stream, every ' +
          'live socket and every agent socket (with its `client_id`; the one that runs headset tools has `executor: true`); one that goes away ' +
          'leaves within 5 s.',
        operationId: 'room_presence',
        params: ROOM_PARAMS,
      },
    },
    async (request) => {
      const roomId = roomOf(ctx, request.params.room_id);
      return { room_id: roomId, peers: markExecutor(await ctx.presence.list(roomId)) };
    },
  );

  const identities = new WeakMap<FastifyRequest, LiveIdentity>();
  app.route({
    method: 'GET',
    url: '/api/rooms/:room_id/live',
    schema: {
      summary: 'Live poses of a room’s peers (WebSocket)',
      description:
        'Send one JSON pose a frame, at most 20 a second and 4 KiB: {head?, hands?: {left?, right?}, pointer?, t?}, each part ' +
        '{position: [x, y, z] (metres), orientation: [x, y, z, w]}. Receive {type: welcome, peer}, then {type: pose, peer, name, kind, ts, pose} ' +
        'of everyone else (only each one’s newest while this socket is behind) and {type: leave, peer}. A bad frame closes the socket ' +
        '(1007, 1009 or 1003 with the reason); a sender far past 20 a second is closed with 1008.',
      operationId: 'room_live',
      params: ROOM_PARAMS,
      querystring: LIVE_QUERY,
    },
    preHandler: async (request) => {
      const live = request as LiveRequest;
      identities.set(request, await liveIdentity(ctx, live, roomOf(ctx, live.params.room_id)));
    },
    handler: async () => {
      throw createHostError('SPC_ERR_LIVE_NOT_WEBSOCKET');
    },
    wsHandler: (socket, request) => {
      const roomId = roomOf(ctx, (request as LiveRequest).params.room_id);
      const identity = identities.get(request)!;
      // Ended as soon as its peer may no longer read the room (the room closed to them, their user removed).
      const unregister = readers.register(roomId, requestIdentity(request), () => socket.close(LIVE_NOT_READABLE.code, LIVE_NOT_READABLE.reason));
      socket.once('close', unregister);
      void ctx.presence.connect(roomId, identity, socket).catch((err: unknown) => {
        request.log.warn({ err, room: roomId }, 'a live socket could not join the room');
        socket.close(1011, 'the room’s presence is unavailable');
      });
    },
  });
}
