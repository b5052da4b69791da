/**
 * @module assemble-people
 * A host's people service over the stores of its home (store-homes.ts: on a Redis service its
 * users, tickets and rooms' access live in the service's Redis, so every host agrees at once; on
 * a lone host users live in the data dir, shared with `vitrine users`, and access beside the
 * rooms it closes), put in front of every route. Also the registry of rooms' lasting readers,
 * told of every user removed.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResolvedHostOptions } from '../options.ts';
import { installPeople } from '../http/people/install-people.ts';
import type { UserStore } from '../people/user-store.ts';
import { People, type PeopleStores } from '../people/people.ts';
import { createProxyTrust } from '../people/trusted-proxy.ts';
import { RoomReaders } from '../people/room-readers.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { RoomSpecimen } from '../people/specimen-access.ts';

type PeopleOptions = Pick<ResolvedHostOptions, 'adminToken' | 'trustProxy' | 'userHeader' | 'defaultRoomId'>;

/** Where a host's people are kept, what tells it of changes made elsewhere, and what it asks of the host. */
export interface PeopleDeps {
  /** Users, tickets and rooms' access, in the host's home. */
  stores: PeopleStores;
  /** The host's event hub, where rooms' access changes arrive from every host. */
  hub: EventHub;
  /** A Redis service's news of users removed (on any host, or by `vitrine users`). */
  usersChanged?: (listener: () => void) => () => void;
  /** The specimen of an id in the host's catalog (a room's published specimen is that room's). */
  specimen(id: string): RoomSpecimen | undefined;
}

/** How often a host whose users' home cannot say of changes looks for removed users among its readers. */
const USERS_SWEEP_MS = 2000;

/**
 * Ends the readers of users removed, as soon as the users' home says of a change (its watch, or a
 * service's message), else by looking every {@link USERS_SWEEP_MS}; answers how to stop.
 */
function endRemovedReaders(readers: RoomReaders, users: UserStore, usersChanged: PeopleDeps['usersChanged']): () => void {
  const sweep = () => void readers.usersChanged();
  let timer: NodeJS.Timeout | null = null;
  const poll = () => void (timer ??= setInterval(sweep, USERS_SWEEP_MS).unref());
  const unwatch = users.watch?.({ changed: sweep, lost: poll }) ?? null;
  const unhear = usersChanged?.(sweep) ?? null;
  if (!unwatch && !unhear) poll();
  return () => {
    unwatch?.();
    unhear?.();
    if (timer) clearInterval(timer);
  };
}

/**
 * Makes the people service and puts it in front of every route `app` will have, with the
 * registry of rooms' lasting readers (event streams, live sockets) it ends; closed with `app`.
 */
export function assemblePeople(
  app: FastifyInstance,
  options: PeopleOptions,
  home: PeopleDeps,
  adminGuarded: (request: FastifyRequest) => boolean,
): { people: People; readers: RoomReaders } {
  const people = new People(home.stores, {
    adminToken: options.adminToken,
    trust: createProxyTrust(options.trustProxy),
    userHeader: options.userHeader,
  });
  installPeople(app, people, {
    defaultRoomId: options.defaultRoomId,
    userHeader: options.userHeader,
    adminGuarded: options.adminToken ? adminGuarded : () => false,
    specimen: home.specimen,
  });
  const readers = new RoomReaders(home.hub, people.readerChecks(), (message, err) => app.log.warn({ err }, message));
  const stop = endRemovedReaders(readers, people.stores.users, home.usersChanged);
  app.addHook('onClose', async () => {
    stop();
    readers.close();
    await people.close();
  });
  return { people, readers };
}
