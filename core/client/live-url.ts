/**
 * @module live-url
 * Where a room's live socket is: `WS /api/rooms/{room}/live`, naming either a follower already
 * listed (its event stream's `X-Peer-Id`: the socket carries that peer's poses) or a new peer
 * (its name when anonymous, and its kind). A browser's WebSocket cannot send `Authorization`,
 * so a client holding a token first asks for a one-time ticket and puts it in the address.
 */
import type { Transport } from './transport.ts';
import type { LivePeer } from '../wire/live-types.ts';

/** Who a live socket is: a listed follower, or a new peer. */
export type LiveWho = { peer: string } | { name?: string; kind?: LivePeer['kind'] };

/** The socket's absolute `ws:` or `wss:` address. */
export async function liveUrl(transport: Transport, room: string, who: LiveWho, signal?: AbortSignal): Promise<string> {
  const query: Record<string, string | undefined> = { ...who };
  if (transport.authorized) {
    // A host without users answers no ticket; the socket then goes as the anonymous follower it stands for.
    const ticket = await transport.json<{ ticket: string }>('POST', '/api/tickets', { signal }).catch(() => null);
    if (ticket) query.ticket = ticket.ticket;
  }
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(transport.url(`/api/rooms/${encodeURIComponent(room)}/live`, query), base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}
