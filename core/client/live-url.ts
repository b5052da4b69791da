/**
 * @module live-url
 * Where a room's live socket is: `WS /api/rooms/{room}/live`, naming either a follower already
 * listed (its event stream's `X-Peer-Id`: the socket carries that peer's poses) or a new peer
 * (its name when anonymous, and its kind); and where a room's agent socket is. A browser's
 * WebSocket cannot send `Authorization`, so a client holding a token first asks for a one-time
 * ticket and puts it in the address.
 */
import type { Transport } from './transport.ts';
import type { LivePeer } from '../wire/live-types.ts';

/** Who a live socket is: a listed follower (as the kind it is now, when it says one: a page in VR is a headset), or a new peer. */
export type LiveWho = { peer: string; kind?: LivePeer['kind'] } | { name?: string; kind?: LivePeer['kind'] };

/** A socket's absolute `ws:` or `wss:` address at `path` with `query`, and a one-time ticket when signed in. */
export async function socketUrl(transport: Transport, path: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<string> {
  const asked = { ...query };
  if (transport.authorized) {
    // A host without users answers no ticket; the socket then goes as the anonymous follower it stands for.
    const ticket = await transport.json<{ ticket: string }>('POST', '/api/tickets', { signal }).catch(() => null);
    if (ticket) asked.ticket = ticket.ticket;
  }
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(transport.url(path, asked), base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** The live socket's absolute `ws:` or `wss:` address. */
export function liveUrl(transport: Transport, room: string, who: LiveWho, signal?: AbortSignal): Promise<string> {
  return socketUrl(transport, `/api/rooms/${encodeURIComponent(room)}/live`, { ...who }, signal);
}

/** Who an agent socket is in the room's roster: its name when anonymous, and its kind (default headset). */
export type AgentWho = { name?: string; kind?: LivePeer['kind'] };

/** The agent socket's (`WS /ws/agent/{room}`, docs/agent.md) absolute address. */
export function agentUrl(transport: Transport, room: string, who: AgentWho, signal?: AbortSignal): Promise<string> {
  return socketUrl(transport, `/ws/agent/${encodeURIComponent(room)}`, { ...who }, signal);
}
