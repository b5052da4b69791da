/**
 * @module redis-ticket-store
 * Tickets on a Redis service: a key each with the ticket's time-to-live, read and deleted in one
 * step, so a ticket opens one stream on one host of the service and never a second.
 */
import type { Redis } from 'ioredis';
import { KEYS } from '../redis/redis-keys.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { newTicket, TICKET_TTL_SECONDS, type TicketStore } from './ticket-store.ts';
import type { Identity } from './users.ts';

const TAKE = `local v = redis.call('GET', KEYS[1]) if v then redis.call('DEL', KEYS[1]) end return v`;

export class RedisTicketStore implements TicketStore {
  #redis: Redis;

  constructor(redis: Redis) {
    this.#redis = redis;
  }

  async issue(identity: Identity): Promise<string> {
    const ticket = newTicket();
    await orUnavailable(this.#redis.set(KEYS.ticket(ticket), JSON.stringify(identity), 'EX', TICKET_TTL_SECONDS));
    return ticket;
  }

  async take(ticket: string): Promise<Identity | null> {
    const json = (await orUnavailable(this.#redis.eval(TAKE, 1, KEYS.ticket(ticket)))) as string | null;
    if (!json) return null;
    const { name, admin, tokenHash } = JSON.parse(json) as Identity;
    return { name, admin: admin === true, ...(typeof tokenHash === 'string' ? { tokenHash } : {}) };
  }
}
