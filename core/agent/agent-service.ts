/**
 * @module agent-service
 * The headset's agent on one host, put together: the rooms it holds (agent-rooms.ts), the
 * client ids it gives, the tools (the MCP table's rows), the model (or none), the speech
 * services (or none) and the figures `/metrics` reads. `serve` takes an agent socket once its
 * upgrade is allowed; `headsets` is where any headset tool call goes, the room agent's or an MCP
 * client's. On a service a room's conversation is held by one host for all (service-agent-rooms.ts).
 */
import type { WebSocket } from 'ws';
import { isHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import type { HeadsetCalls, ToolDeps } from '../mcp/mcp-tool.ts';
import { actingFor } from '../people/acting-person.ts';
import type { People } from '../people/people.ts';
import { AgentFigures } from './agent-figures.ts';
import { AgentRooms } from './agent-rooms.ts';
import { serveAgentSocket, type AgentRoomsPort, type SocketWho } from './agent-socket.ts';
import type { AgentRelay } from './service/agent-relay.ts';
import { ServiceAgentRooms } from './service/service-agent-rooms.ts';
import { AgentTools, type RoomRight } from './agent-tools.ts';
import type { ClientIds } from './client-ids.ts';
import type { ConversationRecord } from '../history/conversation-record.ts';
import type { AgentModel } from './model/agent-model.ts';
import type { AgentRoom } from './agent-room.ts';
import type { RoomVoice } from './voice/room-voice.ts';

export interface AgentServiceDeps {
  ctx: ToolDeps & Pick<HostContext, 'options' | 'history' | 'rooms' | 'presence'>;
  people: Pick<People, 'mayAny' | 'check' | 'may'>;
  ids: ClientIds;
  /** On a service, how a room's conversation spans its hosts; null: this host's rooms are its own. */
  relay: AgentRelay | null;
  /** The rooms' conversations in their logs (shared with replays and snapshots). */
  conversations: ConversationRecord;
  model: AgentModel | null;
  /** The room's voice, or null when the host has no speech services. */
  voice: ((room: AgentRoom) => RoomVoice) | null;
  warn(message: string, error: unknown): void;
}

export class AgentService {
  readonly figures = new AgentFigures();
  readonly rooms: AgentRooms;
  /** Where headset tool calls go (the rooms' tools reach the rooms through it, made before them). */
  readonly headsets: HeadsetCalls = { call: (roomId, name, args) => this.#port.call(roomId, name, args) };
  /** Where sockets' frames and headset calls go: this host's rooms, or on a service the room's holder. */
  #port: AgentRoomsPort & HeadsetCalls;
  #service: ServiceAgentRooms | null = null;
  #deps: AgentServiceDeps;
  #right: RoomRight;

  constructor(deps: AgentServiceDeps) {
    this.#deps = deps;
    // A refusal (the room's access says no) is an answer; a fault on the way (the access store
    // unreachable: Redis away) is thrown, so it is logged and told as a fault, never as "you may not".
    this.#right = async (roomId, who, want) => {
      try {
        await deps.people.check(roomId, who, want);
        return null;
      } catch (error) {
        if (isHostError(error) && error.statusCode < 500) return error.message;
        throw error;
      }
    };
    const options = deps.ctx.options;
    this.rooms = new AgentRooms({
      log: deps.conversations,
      figures: this.figures,
      maxConversations: options.agentMaxRooms,
      parts: {
        model: deps.model,
        tools: new AgentTools({
          ctx: deps.ctx,
          headsets: this.headsets,
          acting: (identity) => actingFor(deps.people, identity),
          fault: (tool, error) => deps.warn(`agent tool '${tool}' failed`, error),
        }),
        right: this.#right,
        turnTimeoutMs: options.agentTurnTimeoutSeconds * 1000,
        maxQueued: options.agentMaxQueued,
        contextBytes: options.agentContextBytes,
        voice: (room) => deps.voice?.(room) ?? null,
        fault: deps.warn,
      },
    });
    this.#port = this.rooms;
    if (deps.relay) this.#port = this.#service = new ServiceAgentRooms(this.rooms, deps.relay, deps.warn);
  }

  /** Serves an agent socket whose upgrade was allowed, until it closes. */
  serve(roomId: string, who: SocketWho, socket: WebSocket): Promise<void> {
    const { ctx, ids, warn } = this.#deps;
    return serveAgentSocket(
      {
        rooms: this.#port,
        ids,
        right: this.#right,
        follow: (room, peer) => ctx.presence.follow(room, peer),
        opened: () => void this.figures.sockets++,
        closed: () => void this.figures.sockets--,
        fault: warn,
      },
      roomId,
      who,
      socket,
    );
  }

  close(): void {
    this.#service?.close();
    this.rooms.close();
  }
}
