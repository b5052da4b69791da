/**
 * @module assemble-people
 * A host's people service over the stores of its home: on a Redis service its users, tickets and
 * rooms' access live in the service's Redis (every host agrees at once); on a lone host users
 * live in the data dir (shared with `vitrine users`), tickets and access in its memory.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ResolvedHostOptions } from '../options.ts';
import { installPeople } from '../people/install-people.ts';
import { MemoryAccessStore } from '../people/memory-access-store.ts';
import { MemoryTicketStore } from '../people/memory-ticket-store.ts';
import { MemoryUserStore } from '../people/memory-user-store.ts';
import { openUserStore } from '../people/open-user-store.ts';
import type { UserStore } from '../people/user-store.ts';
import { DiskAccessStore } from '../people/disk-access-store.ts';
import type { DataStore } from '../durable/data-store.ts';
import { People, type PeopleStores } from '../people/people.ts';
import { RedisAccessStore } from '../people/redis-access-store.ts';
import { RedisTicketStore } from '../people/redis-ticket-store.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { createProxyTrust } from '../people/trusted-proxy.ts';

type PeopleOptions = Pick<ResolvedHostOptions, 'adminToken' | 'trustProxy' | 'userHeader' | 'dataDir' | 'defaultRoomId'>;

/** The data dir's users, or (when its store cannot be opened) none, said once in the log: the host still serves open rooms. */
function dataDirUsers(dataDir: string | null, warn: (line: string) => void): UserStore {
  try {
    return openUserStore({ dataDir });
  } catch (error) {
    warn(`users: the store in ${dataDir} cannot be opened (${(error as Error).message}); no user's token will be known`);
    return new MemoryUserStore();
  }
}

function storesOf(options: PeopleOptions, redis: ScriptedRedis | null, warn: (line: string) => void, data: DataStore | null): PeopleStores {
  if (redis) return { users: openUserStore({ connection: redis }), tickets: new RedisTicketStore(redis), access: new RedisAccessStore(redis) };
  // A lone host with a data folder keeps its users and rooms' access in the folder's store.
  if (data) return { users: openUserStore({ data }), tickets: new MemoryTicketStore(), access: new DiskAccessStore(data) };
  return { users: dataDirUsers(options.dataDir, warn), tickets: new MemoryTicketStore(), access: new MemoryAccessStore() };
}

/** Makes the people service and puts it in front of every route `app` will have; closed with `app`. */
export function assemblePeople(
  app: FastifyInstance,
  options: PeopleOptions,
  redis: ScriptedRedis | null,
  adminGuarded: (request: FastifyRequest) => boolean,
  data: DataStore | null = null,
): People {
  const people = new People(storesOf(options, redis, (line) => app.log.warn(line), data), {
    adminToken: options.adminToken,
    trust: createProxyTrust(options.trustProxy),
    userHeader: options.userHeader,
  });
  installPeople(app, people, {
    defaultRoomId: options.defaultRoomId,
    userHeader: options.userHeader,
    adminGuarded: options.adminToken ? adminGuarded : () => false,
  });
  app.addHook('onClose', () => people.close());
  return people;
}
