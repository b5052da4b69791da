/**
 * @module memory-ticket-store
 * Tickets in one host's memory; stale ones are swept as new ones are issued, so an abandoned
 * ticket holds nothing for long.
 */
import { newTicket, TICKET_TTL_SECONDS, type TicketStore } from './ticket-store.ts';
import type { Identity } from './users.ts';

export class MemoryTicketStore implements TicketStore {
  #tickets = new Map<string, { identity: Identity; expires: number }>();
  #ttlMs: number;

  constructor(ttlSeconds = TICKET_TTL_SECONDS) {
    this.#ttlMs = ttlSeconds * 1000;
  }

  async issue(identity: Identity): Promise<string> {
    const now = Date.now();
    for (const [id, held] of this.#tickets) if (held.expires <= now) this.#tickets.delete(id);
    const ticket = newTicket();
    this.#tickets.set(ticket, { identity: { ...identity }, expires: now + this.#ttlMs });
    return ticket;
  }

  async take(ticket: string): Promise<Identity | null> {
    const held = this.#tickets.get(ticket);
    this.#tickets.delete(ticket);
    return held && held.expires > Date.now() ? held.identity : null;
  }
}
