/**
 * @module room-readers
 * Whoever reads a room over a connection that lasts (its event stream, its live socket, an
 * agent's socket): each registers here with who it is and how to end it, and is ended as soon as
 * it may no longer read the room. A room's new access reaches every host as the room event
 * `access` (a Redis service relays it), and each reader it refuses is ended at once; a user
 * removed is told by the user store's home (its watch, or a service's message) and every reader
 * that user kept open is ended. What a host may have missed (its Redis subscription was away) is
 * checked again against the stores, and so is each reader as it registers, so a change made
 * between a request's check and its registration still ends it.
 */
import { ROOM_ACCESS, ROOM_RESYNC, roomChannel } from '../events/channels.ts';
import type { EventHub, HostEvent } from '../events/event-hub.ts';
import { accessRefusal, type RoomAccess } from './room-access.ts';
import type { Identity } from './users.ts';

/** What a reader's room and users are asked, once the people stores are at hand. */
export interface ReaderChecks {
  /** Whether `who` may read the room now. */
  mayRead(roomId: string, who: Identity | null): Promise<boolean>;
  /** Whether `who` is still a user of the host (false once removed). */
  stillThere(who: Identity): Promise<boolean>;
}

interface Reader {
  who: Identity | null;
  end(): void;
}

interface RoomEntry {
  readers: Set<Reader>;
  unsubscribe(): void;
}

export class RoomReaders {
  #hub: EventHub;
  #checks: ReaderChecks;
  #warn: (message: string, error: unknown) => void;
  #rooms = new Map<string, RoomEntry>();

  constructor(hub: EventHub, checks: ReaderChecks, warn: (message: string, error: unknown) => void) {
    this.#hub = hub;
    this.#checks = checks;
    this.#warn = warn;
  }

  /**
   * Registers a reader of `roomId`: `end` closes its stream or socket (called once at most,
   * when `who` may no longer read the room). Answers what unregisters it (call it when it ends
   * of itself).
   */
  register(roomId: string, who: Identity | null, end: () => void): () => void {
    const reader: Reader = { who, end };
    let entry = this.#rooms.get(roomId);
    if (!entry) {
      const readers = new Set<Reader>();
      entry = { readers, unsubscribe: this.#hub.subscribe(roomChannel(roomId), (event) => this.#heard(roomId, event)) };
      this.#rooms.set(roomId, entry);
    }
    entry.readers.add(reader);
    void this.#check(roomId, [reader]);
    return () => this.#drop(roomId, reader);
  }

  /** How many readers `roomId` has on this host. */
  count(roomId: string): number {
    return this.#rooms.get(roomId)?.readers.size ?? 0;
  }

  /** The users changed (one was removed, or a change may have been missed): every reader whose user is gone ends. */
  async usersChanged(): Promise<void> {
    const known = new Map<string, Promise<boolean>>();
    const checks: Promise<void>[] = [];
    for (const [roomId, entry] of this.#rooms) {
      for (const reader of entry.readers) {
        const who = reader.who;
        if (!who?.tokenHash) continue;
        let there = known.get(who.tokenHash);
        if (!there) known.set(who.tokenHash, (there = this.#checks.stillThere(who)));
        const gone = (yes: boolean) => (yes ? undefined : this.#end(roomId, reader));
        checks.push(there.then(gone, (error: unknown) => this.#warn('who is still a user could not be read', error)));
      }
    }
    await Promise.all(checks);
  }

  #heard(roomId: string, event: HostEvent): void {
    const entry = this.#rooms.get(roomId);
    if (!entry) return;
    if (event.event === ROOM_ACCESS) {
      const access = event.data as RoomAccess | null;
      for (const reader of [...entry.readers]) if (accessRefusal(roomId, access, reader.who, 'read')) this.#end(roomId, reader);
    } else if (event.event === ROOM_RESYNC) {
      // The room's changes may have been missed while the host was not listening: ask the stores.
      void this.#check(roomId, [...entry.readers]);
    }
  }

  /** Ends each of `readers` of the room who may not read it now, or whose user is gone. */
  async #check(roomId: string, readers: Reader[]): Promise<void> {
    await Promise.all(
      readers.map(async (reader) => {
        try {
          const may = await this.#checks.mayRead(roomId, reader.who);
          if (!may || (reader.who && !(await this.#checks.stillThere(reader.who)))) this.#end(roomId, reader);
        } catch (error) {
          this.#warn(`who may still read room '${roomId}' could not be read`, error);
        }
      }),
    );
  }

  #end(roomId: string, reader: Reader): void {
    if (!this.#drop(roomId, reader)) return;
    try {
      reader.end();
    } catch (error) {
      this.#warn(`a reader of room '${roomId}' could not be ended`, error);
    }
  }

  /** Forgets `reader`; false when it was already gone. */
  #drop(roomId: string, reader: Reader): boolean {
    const entry = this.#rooms.get(roomId);
    if (!entry?.readers.delete(reader)) return false;
    if (entry.readers.size === 0) {
      entry.unsubscribe();
      this.#rooms.delete(roomId);
    }
    return true;
  }

  close(): void {
    for (const entry of this.#rooms.values()) entry.unsubscribe();
    this.#rooms.clear();
  }
}
