/**
 * @module agent-rooms
 * The rooms whose agent this host holds: each made on its first socket (its conversation read
 * back from the room's log first, so the joining socket hears it) and let go once it is idle. A
 * host holds at most `--agent-max-rooms` conversations at once; a turn past that is refused
 * with an `error`, never left waiting. Headset tool calls, the agent's or an MCP client's, go to
 * the room's executor through here.
 */
import type { ClientFrame } from './agent-frames.ts';
import type { AgentFigures } from './agent-figures.ts';
import type { AgentMember } from './agent-member.ts';
import { AgentRoom, type AgentRoomDeps } from './agent-room.ts';
import type { BinaryFrame } from './binary-frame.ts';
import type { ConversationRecord } from '../history/conversation-record.ts';
import { createHostError } from '../errors.ts';
import type { HeadsetCalls, HeadsetToolName } from '../mcp/mcp-tool.ts';

/** What each room is made with, but the parts the rooms share. */
export type RoomParts = Omit<AgentRoomDeps, 'openConversation' | 'closeConversation' | 'fullMessage' | 'maybeIdle' | 'log' | 'figures'>;

export interface AgentRoomsDeps {
  parts: RoomParts;
  log: ConversationRecord;
  figures: AgentFigures;
  maxConversations: number;
}

export class AgentRooms implements HeadsetCalls {
  #deps: AgentRoomsDeps;
  #rooms = new Map<string, AgentRoom>();
  #loading = new Map<string, Promise<AgentRoom>>();
  /** Rooms a socket is joining (never dropped meanwhile). */
  #joining = new Map<string, number>();
  #open = 0;

  #unlisten: () => void;

  constructor(deps: AgentRoomsDeps) {
    this.#deps = deps;
    // What others write into a held room's conversation (a replay) reaches its transcript.
    this.#unlisten = deps.log.listen((roomId, change, origin) => {
      const room = this.#rooms.get(roomId);
      if (room && origin !== room) room.written(change);
    });
  }

  /** The room, made (and its conversation read from the log) when this host does not hold it yet. */
  async room(roomId: string): Promise<AgentRoom> {
    const held = this.#rooms.get(roomId);
    if (held) return held;
    let loading = this.#loading.get(roomId);
    if (!loading) {
      loading = this.#make(roomId).then((room) => {
        this.#rooms.set(roomId, room);
        return room;
      });
      this.#loading.set(roomId, loading);
      void loading.finally(() => this.#loading.delete(roomId)).catch(() => {});
    }
    return loading;
  }

  /** The room if this host holds it now. */
  held(roomId: string): AgentRoom | null {
    return this.#rooms.get(roomId) ?? null;
  }

  async #make(roomId: string): Promise<AgentRoom> {
    const { parts, log, figures, maxConversations } = this.#deps;
    const transcript = await log.load(roomId);
    return new AgentRoom(roomId, transcript, {
      ...parts,
      log,
      figures,
      openConversation: () => {
        if (this.#open >= maxConversations) return false;
        figures.conversations = ++this.#open;
        return true;
      },
      closeConversation: () => void (figures.conversations = --this.#open),
      fullMessage: `this host holds its most conversations at once (${maxConversations}, --agent-max-rooms): try again once one ends`,
      maybeIdle: (room) => this.#dropIfIdle(roomId, room),
    });
  }

  async join(roomId: string, member: AgentMember): Promise<void> {
    this.#joining.set(roomId, (this.#joining.get(roomId) ?? 0) + 1);
    try {
      await this.room(roomId);
      // Taken again: the room is never dropped while a socket joins it.
      this.#rooms.get(roomId)!.join(member);
    } finally {
      const left = this.#joining.get(roomId)! - 1;
      if (left === 0) this.#joining.delete(roomId);
      else this.#joining.set(roomId, left);
    }
  }

  leave(roomId: string, clientId: number): void {
    this.held(roomId)?.leave(clientId);
  }

  async frame(roomId: string, member: AgentMember, frame: ClientFrame): Promise<void> {
    (await this.room(roomId)).frame(member, frame);
  }

  async binary(roomId: string, member: AgentMember, frame: BinaryFrame): Promise<void> {
    (await this.room(roomId)).binary(member, frame);
  }

  /** A headset tool call in `roomId`, from the room's agent or an MCP client. */
  async call(roomId: string, name: HeadsetToolName, args: Record<string, unknown>): Promise<unknown> {
    const room = this.held(roomId);
    if (!room) throw createHostError('SPC_ERR_AGENT_NO_HEADSET', roomId);
    return room.callHeadset(name, args);
  }

  /** Who runs the room's headset tools now (as the roster marks it), or null. */
  executorOf(roomId: string): { clientId: number; peerId: string } | null {
    const executor = this.held(roomId)?.executor();
    return executor ? { clientId: executor.clientId, peerId: executor.peer.id } : null;
  }

  /** This host no longer holds the room (another does now): its turn stops and its calls fail. */
  drop(roomId: string): void {
    const room = this.#rooms.get(roomId);
    this.#rooms.delete(roomId);
    room?.close();
  }

  /** Forgets the room once nothing keeps it (its conversation stays in the log). */
  #dropIfIdle(roomId: string, room: AgentRoom): void {
    if (this.#rooms.get(roomId) !== room || !room.idle || this.#joining.has(roomId)) return;
    this.#rooms.delete(roomId);
    room.close();
  }

  close(): void {
    this.#unlisten();
    for (const room of this.#rooms.values()) room.close();
    this.#rooms.clear();
  }
}
