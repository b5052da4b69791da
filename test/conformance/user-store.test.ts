/**
 * @module user-store.test
 * The UserStore contract, written once and run against every home of users: one host's memory,
 * Redis (two stores on connections of their own, as two hosts of a service) and a data dir's
 * lmdb store (two handles, as a host and the `vitrine users` command have it). A user is found
 * by its token's digest, never by anything else of the token; a taken name adds nothing; a
 * removed user's token is unknown at once to every store of the home; a store that watches says
 * of each change, whichever store of the home made it; and where users outlive their host, a
 * store opened anew knows them.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LmdbUserStore, usersOfDataDir, usersOfDataStore } from '../../core/people/lmdb-user-store.ts';
import { openTempDataStore } from '../helpers/temp-data-store.ts';
import { MemoryUserStore } from '../../core/people/memory-user-store.ts';
import { RedisUserStore } from '../../core/people/redis-user-store.ts';
import type { UserStore } from '../../core/people/user-store.ts';
import { addUser, hashToken, userOfToken } from '../../core/people/users.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface UserHarness {
  /** Two stores as two processes of one home have them (memory: one and the same). */
  stores: [UserStore, UserStore];
  /** A store as a host started anew opens it; null where users do not outlive their host. */
  reopen(): UserStore | null;
}

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

function userStoreCases(label: string, make: () => Promise<UserHarness>): void {
  describe(`${label} user store`, () => {
    it('finds a user by its token digest only, and keeps no token', async () => {
      const { stores: [store] } = await make();
      const name = unique('ada');
      const made = await addUser(store, name, false);
      expect(made?.token).toMatch(/^vt_[A-Za-z0-9_-]{43}$/);
      expect(await userOfToken(store, made!.token)).toEqual({ name, admin: false, tokenHash: hashToken(made!.token) });
      expect(await userOfToken(store, `${made!.token}x`)).toBeNull();
      const listed = (await store.list()).find((record) => record.name === name);
      expect(listed).toMatchObject({ name, admin: false, tokenHash: hashToken(made!.token) });
      expect(JSON.stringify(await store.list())).not.toContain(made!.token);
    });

    it('adds nothing under a taken name and lists by name', async () => {
      const { stores: [store] } = await make();
      const [b, a] = [unique('b'), unique('a')];
      const first = await addUser(store, b, true);
      await addUser(store, a, false);
      expect(await addUser(store, b, false)).toBeNull();
      expect(await userOfToken(store, first!.token)).toEqual({ name: b, admin: true, tokenHash: hashToken(first!.token) });
      const names = (await store.list()).map((record) => record.name).filter((n) => n === a || n === b);
      expect(names).toEqual([a, b]);
    });

    it('forgets a removed user and its token at once, for every store of the home', async () => {
      const { stores: [one, other] } = await make();
      const name = unique('gone');
      const made = await addUser(one, name, false);
      expect(await userOfToken(other, made!.token)).toEqual({ name, admin: false, tokenHash: hashToken(made!.token) });
      expect(await other.remove(name)).toBe(true);
      expect(await other.remove(name)).toBe(false);
      expect(await userOfToken(one, made!.token)).toBeNull();
      expect((await one.list()).some((record) => record.name === name)).toBe(false);
      const again = await addUser(one, name, true);
      expect(await userOfToken(other, again!.token)).toEqual({ name, admin: true, tokenHash: hashToken(again!.token) });
    });

    it('says of every change made by any store of the home, where it can watch at all', async () => {
      const { stores: [one, other] } = await make();
      let changes = 0;
      const stop = one.watch?.({ changed: () => changes++, lost: () => expect.fail('the watch was lost') }) ?? null;
      if (!stop) return expect(label).toBe('redis');
      try {
        const name = unique('watched');
        await addUser(other, name, false);
        await waitFor(() => changes >= 1 || undefined, 'the add heard of');
        const before = changes;
        await other.remove(name);
        await waitFor(() => changes > before || undefined, 'the removal heard of');
      } finally {
        stop();
      }
    });

    it('keeps users for a store opened anew where they outlive their host', async () => {
      const h = await make();
      const name = unique('kept');
      const made = await addUser(h.stores[0], name, false);
      const reopened = h.reopen();
      if (!reopened) return expect(label).toBe('memory');
      expect(await userOfToken(reopened, made!.token)).toEqual({ name, admin: false, tokenHash: hashToken(made!.token) });
      await reopened.close();
    });
  });
}

userStoreCases('memory', async () => {
  const store = new MemoryUserStore();
  return { stores: [store, store], reopen: () => null };
});

let redis: RedisServer;
const opened: UserStore[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const store of opened) await store.close();
  await redis?.stop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function redisStore(): UserStore {
  const store = new RedisUserStore(new Redis(redis.url), true);
  opened.push(store);
  return store;
}

userStoreCases('redis', async () => ({ stores: [redisStore(), redisStore()], reopen: redisStore }));

userStoreCases('lmdb', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-users-'));
  dirs.push(dir);
  const open = () => {
    const store = new LmdbUserStore(usersOfDataDir(dir));
    opened.push(store);
    return store;
  };
  return { stores: [open(), open()], reopen: open };
});

// The host's own home: the users database of its open data store; reopened, the same file as
// `vitrine users` opens it beside the running host.
userStoreCases('data store', async () => {
  const data = await openTempDataStore();
  const one = new LmdbUserStore(usersOfDataStore(data));
  return { stores: [one, one], reopen: () => new LmdbUserStore(usersOfDataDir(data.dir)) };
});
