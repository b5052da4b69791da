/**
 * @module ticket-store
 * One-time tickets for event streams: a browser's `EventSource` cannot send a header, so a page
 * asks `POST /api/tickets` (with its token) for a ticket and opens `...?ticket=T`. A ticket
 * stands for its user once, within a minute; a used or stale one is unknown. Homes: one host's
 * memory (memory-ticket-store.ts) or a Redis service (redis-ticket-store.ts), so a ticket asked
 * of one host opens a stream on another behind the same balancer.
 */
import { randomBytes } from 'node:crypto';
import type { Identity } from './users.ts';

/** How long a ticket may wait for its stream. */
export const TICKET_TTL_SECONDS = 60;

export interface TicketStore {
  /** A new ticket standing for `identity`. */
  issue(identity: Identity): Promise<string>;
  /** Who the ticket stands for, spending it; null when unknown, used or stale. */
  take(ticket: string): Promise<Identity | null>;
}

/** A ticket id: 24 random bytes, base64url. */
export function newTicket(): string {
  return randomBytes(24).toString('base64url');
}
