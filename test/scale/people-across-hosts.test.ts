/**
 * People on a Redis service of two host processes: ten users with tokens annotate one room at
 * once, five through each host, each sending another name as `author`: every mark's author is
 * its writer. A room closed through one host is closed on the other at once, and a user removed
 * with `vitrine users remove --redis` is refused by both hosts at their next request.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { RedisUserStore } from '../../core/people/redis-user-store.ts';
import { addUser } from '../../core/people/users.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { room, startService, type Service } from './service.ts';

const run = promisify(execFile);
const USERS = Array.from({ length: 10 }, (_, i) => `user${i}-${room('u').slice(-8)}`);
const tokens = new Map<string, string>();
let service: Service;
let hosts: RunningHost[];

beforeAll(async () => {
  service = await startService();
  hosts = await Promise.all([service.host(), service.host()]);
  const store = new RedisUserStore(new Redis(service.redis.url), true);
  for (const name of USERS) tokens.set(name, (await addUser(store, name, false))!.token);
  await store.close();
}, 180_000);

const headers = (name: string) => ({ authorization: `Bearer ${tokens.get(name)}`, 'content-type': 'application/json' });

describe('people on a Redis service of two hosts', () => {
  it('authors every mark of ten users writing at once by its writer, whatever the body says', async () => {
    const r = room('ten');
    const made = await Promise.all(USERS.map(async (name, u) => {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const body = JSON.stringify({ kind: 'point', points: [[u, i, 0]], author: 'mallory' });
        const response = await fetch(`${hosts[u % 2]!.url}/api/rooms/${r}/annotations`, { method: 'POST', headers: headers(name), body });
        expect(response.status).toBe(201);
        ids.push(((await response.json()) as { id: string }).id);
      }
      return { name, ids };
    }));
    const list = (await (await fetch(`${hosts[1]!.url}/api/rooms/${r}/annotations`)).json()) as { annotations: { id: string; author: string }[] };
    const authorOf = new Map(list.annotations.map((a) => [a.id, a.author]));
    expect(authorOf.size).toBe(100);
    for (const { name, ids } of made) for (const id of ids) expect(authorOf.get(id)).toBe(name);
  });

  it('closes a room on every host at once, and refuses a removed user on every host at once', async () => {
    const r = room('closed');
    const [owner, gone] = [USERS[0]!, USERS[3]!];
    const close = await fetch(`${hosts[0]!.url}/api/rooms/${r}/access`, { method: 'PUT', headers: headers(owner), body: JSON.stringify({ editors: [gone] }) });
    expect(close.status).toBe(200);
    expect((await fetch(`${hosts[1]!.url}/api/rooms/${r}/scene`)).status).toBe(404);
    for (const host of hosts) expect((await fetch(`${host.url}/api/rooms/${r}/scene`, { headers: headers(gone) })).status).toBe(200);
    await run(process.execPath, [CLI, 'users', 'remove', gone, '--redis', service.redis.url], { cwd: REPO });
    for (const host of hosts) {
      const refused = await fetch(`${host.url}/api/rooms/${r}/scene`, { headers: headers(gone) });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: 'SPC_ERR_TOKEN_UNKNOWN' });
    }
  });
});
