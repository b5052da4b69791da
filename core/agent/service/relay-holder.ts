/**
 * @module relay-holder
 * The rooms this host holds for a whole service, as the other hosts reach them: a socket of
 * another host is a member of the room like a socket of this one (its client id from the
 * service's one count, so the oldest socket of the service is the executor wherever it is),
 * whose frames come in messages and whose frames go out in messages to its host. What the room
 * says to several sockets of one host in one go crosses once, naming them all. A host that stops
 * listening (it died) takes its sockets out of the rooms at the next look, so the calls they owed
 * fail as when a socket closes.
 */
import { TOOL_CALL_TIMEOUT_MS } from '../tool-waits.ts';
import type { AgentMember } from '../agent-member.ts';
import type { AgentRelay, MemberCard, RelayMessage } from './agent-relay.ts';
import type { AgentRooms } from '../agent-rooms.ts';
import { isHostError } from '../../errors.ts';
import type { HeadsetToolName } from '../../mcp/mcp-tool.ts';

type Outgoing = { room: string; to: number[]; frame: object | null; bytes: Buffer | null };
type FromHost = Extract<RelayMessage, { kind: 'join' | 'leave' | 'frame' | 'binary' | 'call' }>;

/** Longest a call forwarded from another host waits here (its own wait, then a margin). */
export const FORWARDED_CALL_MS = TOOL_CALL_TIMEOUT_MS + 5000;

export class RelayHolder {
  #rooms: AgentRooms;
  #relay: AgentRelay;
  /** Other hosts' sockets in the rooms held here: room → client id → its host. */
  #remote = new Map<string, Map<number, string>>();
  /** Each room's messages, handled one after another in the order they came. */
  #inbox = new Map<string, Promise<void>>();
  #outgoing = new Map<string, Outgoing[]>();
  #flushing = false;
  /** Claims the room for this host (keeping its lease), answering its holder. */
  #claim: (roomId: string) => Promise<string>;

  constructor(rooms: AgentRooms, relay: AgentRelay, claim: (roomId: string) => Promise<string>) {
    this.#rooms = rooms;
    this.#relay = relay;
    this.#claim = claim;
  }

  /** Whether another host's socket or message keeps `room` here. */
  busy(room: string): boolean {
    return this.#remote.has(room) || this.#inbox.has(room);
  }

  /** Takes a message from another host, after the room's earlier ones. */
  take(message: FromHost, payload: Buffer, fault: (error: unknown) => void): void {
    const previous = this.#inbox.get(message.room) ?? Promise.resolve();
    const next = previous.then(() => this.#handle(message, payload)).catch(fault);
    this.#inbox.set(message.room, next);
    void next.finally(() => {
      if (this.#inbox.get(message.room) === next) this.#inbox.delete(message.room);
    });
  }

  async #handle(message: FromHost, payload: Buffer): Promise<void> {
    const { room, from } = message;
    if (message.kind === 'call') return this.#call(message);
    if (message.kind === 'join') {
      // The lease may have gone meanwhile: only the holder takes a socket in.
      if ((await this.#claim(room)) !== this.#relay.self) return this.#relay.send(from, { kind: 'moved', room, from: this.#relay.self });
      let hosts = this.#remote.get(room);
      if (!hosts) this.#remote.set(room, (hosts = new Map()));
      hosts.set(message.member.clientId, from);
      return this.#rooms.join(room, this.#proxy(room, from, message.member));
    }
    if (message.kind === 'leave') return this.left(room, message.clientId);
    const held = this.#rooms.held(room);
    const member = held?.members.find((m) => m.clientId === message.clientId);
    if (!held || !member) return this.#relay.send(from, { kind: 'moved', room, from: this.#relay.self });
    if (message.kind === 'frame') held.frame(member, message.frame);
    else held.binary(member, { header: message.header, payload });
  }

  /** Another host's socket left (or its host stopped listening). */
  left(room: string, clientId: number): void {
    const hosts = this.#remote.get(room);
    if (!hosts?.delete(clientId)) return;
    if (hosts.size === 0) this.#remote.delete(room);
    this.#rooms.leave(room, clientId);
  }

  async #call(message: Extract<FromHost, { kind: 'call' }>): Promise<void> {
    const answer = (value: Omit<Extract<RelayMessage, { kind: 'answer' }>, 'kind' | 'reply' | 'room' | 'from'>, payload?: Buffer) =>
      this.#relay.send(message.from, { kind: 'answer', reply: message.reply, room: message.room, from: this.#relay.self, ...value }, payload);
    // Not awaited: a call waits for its headset, the room's other messages do not wait for it.
    this.#rooms.call(message.room, message.name as HeadsetToolName, message.args).then(
      (value) => (Buffer.isBuffer(value) ? answer({ bytes: true }, value) : answer({ value })),
      (error: unknown) => answer({ error: { code: isHostError(error) ? error.code : '', message: error instanceof Error ? error.message : String(error) } }),
    );
  }

  #proxy(room: string, host: string, card: MemberCard): AgentMember {
    return {
      ...card,
      send: (frame) => this.#queue(host, room, card.clientId, frame, null),
      sendBytes: (data) => this.#queue(host, room, card.clientId, null, data),
    };
  }

  /** Queues a frame to one socket of `host`; the same frame to its next socket joins the same message. */
  #queue(host: string, room: string, clientId: number, frame: object | null, bytes: Buffer | null): void {
    let queue = this.#outgoing.get(host);
    if (!queue) this.#outgoing.set(host, (queue = []));
    const last = queue.at(-1);
    if (last && last.room === room && last.frame === frame && last.bytes === bytes) last.to.push(clientId);
    else queue.push({ room, to: [clientId], frame, bytes });
    if (this.#flushing) return;
    this.#flushing = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#flushing = false;
    const self = this.#relay.self;
    for (const [host, queue] of this.#outgoing) {
      for (const { room, to, frame, bytes } of queue) {
        if (bytes) this.#relay.send(host, { kind: 'bytes', room, from: self, to }, bytes);
        else this.#relay.send(host, { kind: 'send', room, from: self, to, frame: frame! });
      }
    }
    this.#outgoing.clear();
  }

  /** Hosts with sockets in the rooms held here. */
  hosts(): Set<string> {
    const hosts = new Set<string>();
    for (const byClient of this.#remote.values()) for (const host of byClient.values()) hosts.add(host);
    return hosts;
  }

  /** `host` stopped listening: its sockets leave their rooms. */
  gone(host: string): void {
    for (const [room, byClient] of [...this.#remote]) for (const [clientId, at] of [...byClient]) if (at === host) this.left(room, clientId);
  }

  /** This host no longer holds `room`: the other hosts' sockets are told to join its holder. */
  lost(room: string): void {
    const hosts = new Set(this.#remote.get(room)?.values());
    this.#remote.delete(room);
    for (const host of hosts) this.#relay.send(host, { kind: 'moved', room, from: this.#relay.self });
  }
}
