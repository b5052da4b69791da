/**
 * @module peer
 * Who is in a room: a peer as the roster lists it and `presence` events name it, and the checks
 * of what a follower says of itself (its name, when anonymous, and its kind of client).
 */
import { randomUUID } from 'node:crypto';
import { createHostError } from '../errors.ts';
import type { PresenceChange, RoomPeer } from '../wire/room-types.ts';

export const PEER_KINDS = ['page', 'headset', 'notebook', 'agent'] as const;
export type PeerKind = (typeof PEER_KINDS)[number];

/** Longest name a follower may give itself. */
export const MAX_NAME_LENGTH = 64;

/**
 * A peer as the roster lists it and `presence` events name it: the wire shape every client
 * reads. One connection is one peer (one person with two tabs is two); an agent socket carries
 * its client id in the room, and the roster marks the oldest one as the room's executor.
 */
export type Peer = RoomPeer;

export type { PresenceChange };

/** A fresh peer id. */
export function newPeerId(): string {
  return `p-${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** The kind a follower names (page when it names none); a 400 for any other word. */
export function checkKind(raw: string | undefined, fallback: PeerKind = 'page'): PeerKind {
  if (raw === undefined || raw === '') return fallback;
  if ((PEER_KINDS as readonly string[]).includes(raw)) return raw as PeerKind;
  throw createHostError('SPC_ERR_PRESENCE_INVALID', 'kind', `must be one of ${PEER_KINDS.join(', ')}, got '${raw}'`);
}

/** The name a follower gives (null when it gives none); a 400 past 64 characters or with control characters. */
export function checkName(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  const name = raw.trim();
  if (name === '') return null;
  if ([...name].length > MAX_NAME_LENGTH) throw createHostError('SPC_ERR_PRESENCE_INVALID', 'name', `must be at most ${MAX_NAME_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw createHostError('SPC_ERR_PRESENCE_INVALID', 'name', 'must not hold control characters');
  return name;
}

/** A new peer: named by its user, or by the name it gave when the host knows no user. */
export function peerOf(user: string, anonymous: string, given: { name?: string; kind?: string }, kind: PeerKind = 'page'): Peer {
  const name = checkName(given.name);
  return { id: newPeerId(), name: user !== anonymous ? user : (name ?? anonymous), kind: checkKind(given.kind, kind), user, since: Date.now() };
}

/** `peers` with the executor of headset tools marked: the agent socket with the smallest client id. */
export function markExecutor(peers: Peer[]): Peer[] {
  let oldest: Peer | undefined;
  for (const peer of peers) if (peer.client_id !== undefined && (oldest === undefined || peer.client_id < oldest.client_id!)) oldest = peer;
  return oldest ? peers.map((peer) => (peer === oldest ? { ...peer, executor: true } : peer)) : peers;
}
