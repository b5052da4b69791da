/**
 * @module service-agent-rooms
 * A room's agent on a Redis service: one conversation per room across every host. The first host
 * a room's socket reaches claims the room (a lease in Redis, renewed while it holds the room);
 * the other hosts send the holder their sockets' joins, frames and leaves, and hand their sockets
 * what the holder sends them, so every socket of the room hears the same frames in the same
 * order and turns from any host queue in one order. A holder that stops listening (it died) is
 * replaced at the next look by whichever host claims the room first, and every host's sockets
 * join the new holder (hearing `history` again). A headset tool call made on any host (an MCP
 * client's) goes to the holder. A lone host uses its own rooms alone (agent-rooms.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ClientFrame } from '../agent-frames.ts';
import type { AgentMember } from '../agent-member.ts';
import { LEASE_MS, type AgentRelay, type RelayMessage } from './agent-relay.ts';
import type { AgentRooms } from '../agent-rooms.ts';
import type { AgentRoomsPort } from '../agent-socket.ts';
import type { BinaryFrame } from '../binary-frame.ts';
import { FORWARDED_CALL_MS, RelayHolder } from './relay-holder.ts';
import { createHostError, HostError, type HostErrorCode } from '../../errors.ts';
import type { HeadsetCalls, HeadsetToolName } from '../../mcp/mcp-tool.ts';

/** How often a host looks whether the hosts it relays for, or to, still listen: well within the second a departure may take. */
const LOOK_MS = 250;

type Waiting = { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout };

export class ServiceAgentRooms implements AgentRoomsPort, HeadsetCalls {
  #rooms: AgentRooms;
  #relay: AgentRelay;
  #holder: RelayHolder;
  /** Each room's holder as this host knows it (claimed when this host's first socket joined). */
  #holders = new Map<string, Promise<string>>();
  /** This host's sockets by room, each with the host it joined (null: not yet). */
  #local = new Map<string, Map<number, { member: AgentMember; at: string | null }>>();
  /** Rooms whose lease this host holds. */
  #leases = new Set<string>();
  #calls = new Map<string, Waiting>();
  #timer: NodeJS.Timeout;
  #looks = 0;
  #looking = false;
  /** Whether the last look failed (Redis away): told once, not at every look. */
  #lookFailed = false;
  #fault: (message: string, error: unknown) => void;

  constructor(rooms: AgentRooms, relay: AgentRelay, fault: (message: string, error: unknown) => void) {
    this.#rooms = rooms;
    this.#relay = relay;
    this.#fault = fault;
    this.#holder = new RelayHolder(rooms, relay, (roomId) => this.#claim(roomId));
    relay.onMessage((message, payload) => this.#take(message, payload));
    this.#timer = setInterval(() => {
      // One look at a time: a look waiting on Redis is not joined by the next.
      if (this.#looking) return;
      this.#looking = true;
      this.#look()
        .then(
          () => void (this.#lookFailed = false),
          (error: unknown) => {
            if (!this.#lookFailed) fault('the agent could not look at the other hosts', error);
            this.#lookFailed = true;
          },
        )
        .finally(() => (this.#looking = false));
    }, LOOK_MS).unref();
  }

  async join(roomId: string, member: AgentMember): Promise<void> {
    let sockets = this.#local.get(roomId);
    if (!sockets) this.#local.set(roomId, (sockets = new Map()));
    sockets.set(member.clientId, { member, at: null });
    await this.#route(roomId);
  }

  leave(roomId: string, clientId: number): void {
    const sockets = this.#local.get(roomId);
    const socket = sockets?.get(clientId);
    if (!sockets || !socket) return;
    sockets.delete(clientId);
    if (sockets.size === 0) this.#local.delete(roomId);
    if (socket.at === this.#relay.self) this.#rooms.leave(roomId, clientId);
    else if (socket.at) this.#relay.send(socket.at, { kind: 'leave', room: roomId, from: this.#relay.self, clientId });
  }

  async frame(roomId: string, member: AgentMember, frame: ClientFrame): Promise<void> {
    const holder = await this.#route(roomId);
    if (holder === this.#relay.self) return this.#rooms.frame(roomId, member, frame);
    // Awaited: a frame that cannot cross (Redis away) is told to its sender, not lost unsaid.
    await this.#relay.deliver(holder, { kind: 'frame', room: roomId, from: this.#relay.self, clientId: member.clientId, frame });
  }

  async binary(roomId: string, member: AgentMember, frame: BinaryFrame): Promise<void> {
    const holder = await this.#route(roomId);
    if (holder === this.#relay.self) return this.#rooms.binary(roomId, member, frame);
    await this.#relay.deliver(holder, { kind: 'binary', room: roomId, from: this.#relay.self, clientId: member.clientId, header: frame.header }, frame.payload);
  }

  /** A headset tool call: run by the room's holder, wherever it is. */
  async call(roomId: string, name: HeadsetToolName, args: Record<string, unknown>): Promise<unknown> {
    const holder = await this.#relay.holder(roomId);
    if (holder === null || holder === this.#relay.self) return this.#rooms.call(roomId, name, args);
    const reply = randomUUID();
    return new Promise((resolve, reject) => {
      const late = () => createHostError('SPC_ERR_HEADSET_TIMEOUT', name, String(FORWARDED_CALL_MS / 1000));
      const timer = setTimeout(() => this.#answered(reply)?.reject(late()), FORWARDED_CALL_MS).unref();
      this.#calls.set(reply, { resolve, reject, timer });
      this.#relay.send(holder, { kind: 'call', room: roomId, from: this.#relay.self, reply, name, args });
    });
  }

  /** The room's holder, once every socket of this host in the room has joined it. */
  async #route(roomId: string): Promise<string> {
    let holder = this.#holders.get(roomId);
    if (!holder) this.#holders.set(roomId, (holder = this.#claim(roomId)));
    // A claim that failed (Redis away) is tried again by the next frame.
    const at = await holder.catch((error: unknown) => {
      if (this.#holders.get(roomId) === holder) this.#holders.delete(roomId);
      throw error;
    });
    for (const socket of this.#local.get(roomId)?.values() ?? []) {
      if (socket.at === at) continue;
      socket.at = at;
      if (at === this.#relay.self) await this.#rooms.join(roomId, socket.member);
      else this.#relay.send(at, { kind: 'join', room: roomId, from: this.#relay.self, member: cardOf(socket.member) });
    }
    return at;
  }

  async #claim(roomId: string, gone?: string): Promise<string> {
    const holder = await this.#relay.claim(roomId, gone);
    if (holder === this.#relay.self) this.#leases.add(roomId);
    return holder;
  }

  /** The holder changed (it moved, or was gone): this host's sockets join whoever holds the room now. */
  #rehome(roomId: string, gone?: string): void {
    this.#holders.set(roomId, this.#claim(roomId, gone));
    const failed = (error: unknown) => this.#fault(`room '${roomId}': its sockets could not join its new holder`, error);
    if (this.#local.has(roomId)) void this.#route(roomId).catch(failed);
    else this.#holders.delete(roomId);
  }

  #take(message: RelayMessage, payload: Buffer): void {
    switch (message.kind) {
      case 'join':
      case 'leave':
      case 'frame':
      case 'binary':
      case 'call':
        return this.#holder.take(message, payload, (error) => this.#fault(`room '${message.room}': a message from another host failed`, error));
      case 'send':
      case 'bytes': {
        const sockets = this.#local.get(message.room);
        for (const clientId of message.to) {
          const member = sockets?.get(clientId)?.member;
          if (message.kind === 'send') member?.send(message.frame);
          else member?.sendBytes(payload);
        }
        return;
      }
      case 'answer': {
        const waiting = this.#answered(message.reply);
        if (!waiting) return;
        const { error } = message;
        if (error) waiting.reject(error.code ? new HostError(error.code as HostErrorCode, error.message) : new Error(error.message));
        else waiting.resolve(message.bytes ? Buffer.from(payload) : message.value);
        return;
      }
      case 'moved':
        return this.#rehome(message.room);
    }
  }

  #answered(reply: string): Waiting | undefined {
    const waiting = this.#calls.get(reply);
    this.#calls.delete(reply);
    if (waiting) clearTimeout(waiting.timer);
    return waiting;
  }

  /**
   * Takes out the sockets of hosts that stopped listening, claims the rooms whose holder did, and
   * (every third of a lease) renews this host's leases, letting go those it holds no more.
   */
  async #look(): Promise<void> {
    const holders = new Map<string, string>();
    for (const roomId of this.#local.keys()) {
      const holder = await this.#holders.get(roomId)?.catch(() => null);
      if (holder && holder !== this.#relay.self) holders.set(roomId, holder);
    }
    const hosts = new Set([...this.#holder.hosts(), ...holders.values()]);
    if (hosts.size > 0) {
      const listening = await this.#relay.listening([...hosts]);
      for (const host of hosts) if (!listening.has(host)) this.#holder.gone(host);
      for (const [roomId, holder] of holders) if (!listening.has(holder)) this.#rehome(roomId, holder);
    }
    if (++this.#looks % Math.round(LEASE_MS / 3 / LOOK_MS) === 0) await this.#renew();
  }

  async #renew(): Promise<void> {
    for (const roomId of [...this.#leases]) {
      if (this.#rooms.held(roomId) || this.#local.has(roomId) || this.#holder.busy(roomId)) continue;
      this.#leases.delete(roomId);
      if (this.#holders.get(roomId)) this.#holders.delete(roomId);
      await this.#relay.release(roomId);
    }
    for (const roomId of await this.#relay.renew([...this.#leases])) {
      this.#leases.delete(roomId);
      this.#rooms.drop(roomId);
      this.#holder.lost(roomId);
      this.#rehome(roomId);
    }
  }

  close(): void {
    clearInterval(this.#timer);
    for (const roomId of this.#leases) void this.#relay.release(roomId);
    for (const reply of [...this.#calls.keys()]) this.#answered(reply)?.reject(createHostError('SPC_ERR_HOST_CLOSING'));
  }
}

const cardOf = ({ clientId, peer, identity, readOnly, baseUrl }: AgentMember) => ({ clientId, peer, identity, readOnly, baseUrl });
