/**
 * @module service-lease.test
 * A room's agent across two hosts of a service, in memory: the relay between them is a stand-in
 * for Redis (a lease per room that lapses unless renewed, messages delivered in order, a host
 * that died no longer listening), and the clock is fake. The first host a socket reaches holds
 * the room and the other host's socket joins it there; when the holder dies, the other host
 * claims the room at its next look and its socket hears `history` again, the conversation kept;
 * a holder whose lease was taken lets the room go and its own sockets join the new holder.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LEASE_MS, type AgentRelay, type RelayListener, type RelayMessage } from '../../../core/agent/service/agent-relay.ts';
import type { AgentRooms } from '../../../core/agent/agent-rooms.ts';
import { ServiceAgentRooms } from '../../../core/agent/service/service-agent-rooms.ts';
import type { ConversationRecord } from '../../../core/history/conversation-record.ts';
import { handTools, keptMember, memoryAgentRooms, memoryConversations, type KeptMember } from '../../helpers/agent-parts.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** What Redis is to a service's hosts, in memory: leases, listeners, and who is dead. */
class RelayHub {
  owners = new Map<string, { host: string; until: number }>();
  listeners = new Map<string, RelayListener[]>();
  dead = new Set<string>();

  #owner(room: string): string | null {
    const lease = this.owners.get(room);
    return lease && lease.until > Date.now() ? lease.host : null;
  }

  relay(self: string): AgentRelay {
    const alive = () => {
      if (this.dead.has(self)) throw new Error(`${self} is dead`);
    };
    return {
      self,
      holder: async (room) => (alive(), this.#owner(room)),
      claim: async (room, gone = '') => {
        alive();
        const owner = this.#owner(room);
        if (owner === null || owner === gone || owner === self) this.owners.set(room, { host: self, until: Date.now() + LEASE_MS });
        return this.#owner(room)!;
      },
      renew: async (rooms) => {
        alive();
        const lost = rooms.filter((room) => this.#owner(room) !== self);
        for (const room of rooms) if (!lost.includes(room)) this.owners.set(room, { host: self, until: Date.now() + LEASE_MS });
        return lost;
      },
      release: async (room) => {
        if (this.#owner(room) === self) this.owners.delete(room);
      },
      send: (host: string, message: RelayMessage, payload: Uint8Array = Buffer.alloc(0)) => {
        if (this.dead.has(self) || this.dead.has(host)) return;
        queueMicrotask(() => {
          if (!this.dead.has(host)) for (const listener of this.listeners.get(host) ?? []) listener(message, Buffer.from(payload));
        });
      },
      // Like Redis, a message to a host that died is lost, but a dead sender cannot send at all.
      deliver: async (host: string, message: RelayMessage, payload: Uint8Array = Buffer.alloc(0)) => {
        alive();
        queueMicrotask(() => {
          if (!this.dead.has(host)) for (const listener of this.listeners.get(host) ?? []) listener(message, Buffer.from(payload));
        });
      },
      listening: async (hosts) => (alive(), new Set(hosts.filter((host) => !this.dead.has(host)))),
      onMessage: (listener) => void this.listeners.set(self, [...(this.listeners.get(self) ?? []), listener]),
      close: async () => {},
    };
  }
}

interface Host {
  rooms: AgentRooms;
  service: ServiceAgentRooms;
}

function hostOf(hub: RelayHub, name: string, log: ConversationRecord): Host {
  const rooms = memoryAgentRooms(null, handTools(), 4, log);
  return { rooms, service: new ServiceAgentRooms(rooms, hub.relay(name), () => {}) };
}

const histories = (member: KeptMember) => member.frames.filter((f) => f.type === 'history');

describe('a room’s agent on a service', () => {
  it('is held by the first host; when it dies, the other claims it and its socket hears history again', async () => {
    const hub = new RelayHub();
    const log = memoryConversations();
    const [a, b] = [hostOf(hub, 'A', log), hostOf(hub, 'B', log)];
    const [onA, onB] = [keptMember(0), keptMember(1)];
    await a.service.join('lab', onA);
    await b.service.join('lab', onB);
    await vi.advanceTimersByTimeAsync(0);
    expect(hub.owners.get('lab')?.host).toBe('A');
    expect(histories(onB)).toEqual([{ type: 'history', entries: [], client_id: 1 }]);
    expect(a.rooms.executorOf('lab')?.clientId).toBe(0);
    expect(b.rooms.held('lab')).toBeNull();
    await log.write('lab', { role: 'user', text: 'kept?' }, 'bo');
    // A is killed: it renews nothing, hears nothing.
    hub.dead.add('A');
    await vi.advanceTimersByTimeAsync(250);
    expect(hub.owners.get('lab')?.host).toBe('B');
    expect(histories(onB)).toEqual([
      { type: 'history', entries: [], client_id: 1 },
      { type: 'history', entries: [{ role: 'user', text: 'kept?' }], client_id: 1 },
    ]);
    expect(b.rooms.executorOf('lab')?.clientId).toBe(1);
    // B keeps its lease past what one lease lasts, renewing it.
    await vi.advanceTimersByTimeAsync(3 * LEASE_MS);
    expect(hub.owners.get('lab')?.host).toBe('B');
    for (const host of [a, b]) host.service.close();
  });

  it('lets a room go when its lease was taken, and its sockets join the new holder', async () => {
    const hub = new RelayHub();
    const log = memoryConversations();
    const [a, b] = [hostOf(hub, 'A', log), hostOf(hub, 'B', log)];
    const onA = keptMember(0);
    await a.service.join('lab', onA);
    expect(hub.owners.get('lab')?.host).toBe('A');
    // B takes the lease (A was too slow to renew it).
    hub.owners.set('lab', { host: 'B', until: Date.now() + LEASE_MS });
    await vi.advanceTimersByTimeAsync(LEASE_MS / 3 + 250);
    expect(a.rooms.held('lab')).toBeNull();
    expect(b.rooms.executorOf('lab')?.clientId).toBe(0);
    expect(histories(onA)).toHaveLength(2);
    for (const host of [a, b]) host.service.close();
  });
});
