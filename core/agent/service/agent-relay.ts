/**
 * @module agent-relay
 * How a room's agent spans the hosts of a service: one host holds a room's conversation at a
 * time (a lease it renews, taken over once its holder stops listening), and the hosts talk to
 * each other in messages, each to one host, delivered in the order they were sent. The sockets'
 * hosts send the holder their sockets' joins, frames and leaves; the holder sends back what the
 * conversation says to each of them. A lone host has no relay (its rooms are all its own); the
 * Redis one (redis-agent-relay.ts) is beside it.
 */
import type { ClientFrame } from '../agent-frames.ts';
import type { AgentMember } from '../agent-member.ts';
import type { BinaryHeader } from '../binary-frame.ts';

/** A socket as its host describes it to the room's holder. */
export type MemberCard = Omit<AgentMember, 'send' | 'sendBytes'>;

/** What one host tells another about a room's agent, besides the room and who sends it. */
type RelayBody =
  // To the holder, from a host with sockets in the room.
  | { kind: 'join'; member: MemberCard }
  | { kind: 'leave'; clientId: number }
  | { kind: 'frame'; clientId: number; frame: ClientFrame }
  | { kind: 'binary'; clientId: number; header: BinaryHeader }
  /** A headset tool call made on a host that does not hold the room (an MCP client's). */
  | { kind: 'call'; reply: string; name: string; args: Record<string, unknown> }
  // From the holder.
  | { kind: 'send'; to: number[]; frame: object }
  | { kind: 'bytes'; to: number[] }
  /** A call's answer: its value, or its bytes (the payload), or why it failed. */
  | { kind: 'answer'; reply: string; value?: unknown; bytes?: true; error?: { code: string; message: string } }
  /** The host sent to does not hold the room (any more): the sender's sockets join its holder again. */
  | { kind: 'moved' };

export type RelayMessage = RelayBody & { room: string; from: string };

/** A message and the bytes it carries (a screenshot, audio, speech), if any. */
export type RelayListener = (message: RelayMessage, payload: Buffer) => void;

export interface AgentRelay {
  /** This host's id in the service. */
  readonly self: string;
  /** The room's holder now, or null. */
  holder(roomId: string): Promise<string | null>;
  /** The room's holder; this host, when none holds it or its holder was `gone`. */
  claim(roomId: string, gone?: string): Promise<string>;
  /** Keeps this host's leases on `roomIds`; answers the rooms it no longer holds. */
  renew(roomIds: string[]): Promise<string[]>;
  release(roomId: string): Promise<void>;
  /** Sends `message` to `host`, in order after what this host sent it before; what cannot be sent is lost. */
  send(host: string, message: RelayMessage, payload?: Uint8Array): void;
  /** The same, resolving once the message is on its way; rejects (a 503) when it cannot be sent. */
  deliver(host: string, message: RelayMessage, payload?: Uint8Array): Promise<void>;
  /** Which of `hosts` still listen (a host that died stops at once). */
  listening(hosts: string[]): Promise<Set<string>>;
  onMessage(listener: RelayListener): void;
  close(): Promise<void>;
}

/** How long a holder's lease lasts unless renewed; it is renewed three times as often. */
export const LEASE_MS = 3000;
