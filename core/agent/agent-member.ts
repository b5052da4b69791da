/**
 * @module agent-member
 * One agent socket as the room's conversation sees it, wherever the socket is held (this host,
 * or another host of a Redis service): its client id, who it is, and how to reach it. What a
 * socket sends has been read and its right to write checked where the socket is held, before it
 * reaches the room.
 */
import type { Identity } from '../people/users.ts';
import type { Peer } from '../presence/peer.ts';

export interface AgentMember {
  /** The socket's id in the room: given once, growing, never given again. */
  readonly clientId: number;
  /** Who it is in the room's roster. */
  readonly peer: Peer;
  /** Who the host says sent what it sends (null: nobody known), whose rights its turns' tools use. */
  readonly identity: Identity | null;
  /** Why this socket may only read whatever its person's rights (a page of another origin), or null. */
  readonly readOnly: string | null;
  /** The host's base URL as the socket reached it, for the links tools answer. */
  readonly baseUrl: string;
  /** Sends a text frame (a JSON object). */
  send(frame: object): void;
  /** Sends a binary frame (already encoded). */
  sendBytes(data: Buffer): void;
}
