/**
 * @module routes-agent
 * `WS /ws/agent/{room_id}`: the agent socket of the Ascribe-XR client's agent panel (and of the
 * viewer's). The upgrade is a read of the room (the people hook refuses one who may not read it,
 * as it refuses the room's event stream); what the socket says of itself (`?name=`, `?kind=`,
 * default headset) is checked before the upgrade, so a bad one is a plain 400. A page of
 * another origin may follow the conversation only when every origin may read (`--cors-origin
 * *`), and may speak only when its origin is listed; any other page's upgrade is a 403. A socket
 * whose client may no longer read the room (closed to them, their user removed) is closed (1008).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { createHostError } from '../../errors.ts';
import { requestOrigin } from '../../exports/request-origin.ts';
import { isListedOrigin, parseCorsOrigins, type CorsOrigins } from '../cors-origins.ts';
import { isCrossOrigin } from '../cross-site-writes.ts';
import { roomOf } from '../request-input.ts';
import { queryOf, ROOM_PARAMS } from '../route-inputs.ts';
import { sizedUpgrades } from '../socket-limits.ts';
import { LIVE_NOT_READABLE } from '../rooms/routes-presence.ts';
import type { RoomReaders } from '../../people/room-readers.ts';
import type { ResolvedHostOptions } from '../../options.ts';
import { ANONYMOUS, requestIdentity, requestUser } from '../../people/request-user.ts';
import { PEER_KINDS, peerOf } from '../../presence/peer.ts';
import { MAX_BINARY_FRAME, type SocketWho } from '../../agent/agent-socket.ts';
import type { AgentService } from '../../agent/agent-service.ts';

type AgentRequest = FastifyRequest<{ Params: { room_id: string }; Querystring: { name?: string; kind?: string } }>;

const SCHEMA = {
  summary: 'The room’s agent: a conversation every socket of the room shares (WebSocket)',
  description:
    'Text frames are JSON objects with a `type`: the client sends text, tool_result, screenshot_meta, interrupt, end_conversation, bind, unbind; ' +
    'the host sends history (first, with the socket’s client_id), agent_text, agent_text_done, tool_call, status, error, turn_queued, ' +
    'speaker_bound, speaker_released, transcript, agent_audio_end. Binary frames are a u32 little-endian header length, a JSON header ' +
    '(`kind` audio, screenshot or tts) and the payload. A text frame is at most 1 MiB, a binary one 4 MiB (else close 1009). See docs/agent.md.',
  operationId: 'room_agent',
  params: ROOM_PARAMS,
  querystring: queryOf({
    name: { type: 'string', description: 'The socket’s name in the roster when the host knows no user for it (at most 64 characters)' },
    kind: { type: 'string', description: `${PEER_KINDS.join(', ')} (default headset)` },
  }),
};

/** Who the socket is, and whether its page's origin lets it speak; a 403 for a page that may not even read. */
function whoOf(request: AgentRequest, cors: CorsOrigins): SocketWho {
  const peer = peerOf(requestUser(request), ANONYMOUS, request.query, 'headset');
  const who: SocketWho = { peer, identity: requestIdentity(request), baseUrl: requestOrigin(request), readOnly: null };
  if (!isCrossOrigin(request)) return who;
  const origin = request.headers.origin;
  if (isListedOrigin(cors, origin)) return who;
  if (!cors.anyReader) throw createHostError('SPC_ERR_CROSS_SITE_WRITE', 'agent socket', origin ?? 'an origin the browser did not name');
  return { ...who, readOnly: `a page of another origin (${origin ?? '?'}) may follow this conversation but not speak in it: list it in --cors-origin` };
}

/** `readers`: where each socket registers, to be closed once its client may no longer read the room. */
export async function agentRoutes(
  app: FastifyInstance,
  { agent, options, readers }: { agent: AgentService; options: ResolvedHostOptions; readers: Pick<RoomReaders, 'register'> },
): Promise<void> {
  const cors = parseCorsOrigins(options.corsOrigin);
  // Screenshots and audio come as binary frames of up to 4 MiB: more than the host's other sockets take.
  const sockets = sizedUpgrades(app, MAX_BINARY_FRAME);
  const serve = (request: AgentRequest, socketWho: SocketWho, socket: WebSocket) => {
    const roomId = roomOf({ options }, request.params.room_id);
    // Closed as soon as its client may no longer read the room (the room closed to them, their user removed).
    const unregister = readers.register(roomId, socketWho.identity, () => socket.close(LIVE_NOT_READABLE.code, LIVE_NOT_READABLE.reason));
    socket.once('close', unregister);
    agent.serve(roomId, socketWho, socket).catch((err: unknown) => {
      request.log.warn({ err, room: roomId }, 'an agent socket could not join the room');
      socket.close(1011, 'the room’s agent is unavailable');
    });
  };
  app.route({
    method: 'GET',
    url: '/ws/agent/:room_id',
    schema: SCHEMA,
    preHandler: async (request, reply) => {
      const socketWho = whoOf(request as AgentRequest, cors);
      if (request.ws) sockets.upgrade(request, reply, (socket) => serve(request as AgentRequest, socketWho, socket));
    },
    handler: async () => {
      throw createHostError('SPC_ERR_AGENT_NOT_WEBSOCKET');
    },
  });
}
