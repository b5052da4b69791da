/**
 * @module room-pointers.test
 * Hosts keep the room pointers they have read (room-pointers.ts), and the rule that makes that
 * safe, across two host processes on a real Redis: once a request that changed a room's entry
 * has been answered on one host, the other host's next request for that room sees the new
 * entry, never its stale copy (a stale copy would compute the new values again, or serve the
 * old ones as a hit; `counted` counts every run). A host whose Redis came back without its
 * data (it may have missed invalidations meanwhile) holds no pointer from before. Hits read
 * from memory still reach the room's access count. A room's access is held beside its pointer
 * under the same rule: closed, narrowed or opened through one host, the other host's next hit
 * of the room answers by the new access. A follower's read of the room's entry on one host,
 * between a peer's ask on the other and its end, leaves the room on the peer's value, and the
 * follower is told it.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisUserStore } from '../../core/people/redis-user-store.ts';
import { addUser } from '../../core/people/users.ts';
import { FOLLOWER_HEADER } from '../../core/wire/follower-header.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { openStream, type StreamEvent } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { getData, lineCount, readyz, room, tag, useTwoHosts } from './service.ts';

const s = useTwoHosts({ poolSize: 2 });

const params = (t: string) => ({ dir: s.service.runs, tag: t, delay_ms: 0 });
const runs = (t: string) => lineCount(s.service.runs, `${t}.runs`);

async function ok(host: RunningHost, t: string, roomId: string): Promise<void> {
  const reply = await getData(host, 'count', params(t), roomId);
  expect(reply.status, reply.body.toString()).toBe(200);
}

describe('room pointers held by hosts', () => {
  it('never serve a stale entry once another host has answered the change', async () => {
    const r = room();
    const expected = new Map<string, number>();
    const check = (t: string) => expect(runs(t), `runs of ${t}`).toBe(expected.get(t) ?? 0);
    let current = tag();
    await ok(s.a, current, r);
    expected.set(current, 1);
    for (let i = 0; i < 6; i++) {
      const next = tag();
      // B holds the room's current entry (read twice: the second read comes from memory).
      await ok(s.b, current, r);
      await ok(s.b, current, r);
      check(current);
      // A changes the room's entry; as soon as A has answered, B must see the new entry: a hit
      // (no second run of `next`), and the old values a miss (a second run of `current`).
      await ok(s.a, next, r);
      expected.set(next, 1);
      check(next);
      await ok(s.b, next, r);
      check(next);
      await ok(s.b, current, r);
      expected.set(current, expected.get(current)! + 1);
      check(current);
      // B's change must in turn reach A: `next` is a miss there now.
      await ok(s.a, next, r);
      expected.set(next, 2);
      check(next);
      current = next;
    }
  });

  it('count hits served from memory in the room access count', async () => {
    const r = room();
    const t = tag();
    await ok(s.a, t, r);
    for (let i = 0; i < 4; i++) await ok(s.b, t, r);
    // Each host writes its hits within a second; stats flushes its own at once.
    const stats = await waitFor(async () => {
      const body = (await (await fetch(`${s.a.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string; access_count: number }[] };
      const entry = body.entries.find((e) => e.room_id === r);
      return entry && entry.access_count >= 5 ? entry : undefined;
    }, 'the hits of B counted');
    expect(stats.access_count).toBe(5);
    expect(runs(t)).toBe(1);
  });

  it("hold the room's access too: a change answered by one host is the other's next answer", async () => {
    const r = room();
    const t = tag();
    const users = new RedisUserStore(new Redis(s.service.redis.url), true);
    const [owner, reader] = [`owner-${t}`, `reader-${t}`];
    const tokens = { [owner]: (await addUser(users, owner, false))!.token, [reader]: (await addUser(users, reader, false))!.token };
    await users.close();
    const query = new URLSearchParams({ params: JSON.stringify(params(t)), room_id: r });
    const hit = async (host: RunningHost, who?: string) => {
      const res = await fetch(`${host.url}/api/specimens/count/data?${query}`, { headers: who ? { authorization: `Bearer ${tokens[who]}` } : {} });
      await res.arrayBuffer();
      return res.status;
    };
    const setAccess = async (body: object) => {
      const res = await fetch(`${s.a.url}/api/rooms/${r}/access`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${tokens[owner]}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    await ok(s.a, t, r);
    for (let i = 0; i < 3; i++) {
      // B holds the room's access as open (the second hit comes from memory).
      expect([await hit(s.b), await hit(s.b)]).toEqual([200, 200]);
      await setAccess({ viewers: [reader] });
      expect([await hit(s.b), await hit(s.b, reader), await hit(s.b, reader)]).toEqual([404, 200, 200]);
      await setAccess({ viewers: [] });
      expect(await hit(s.b, reader)).toBe(404);
      await setAccess({ public: 'write' });
    }
    expect(runs(t)).toBe(1);
  });

  it("end on a peer's ask though a follower on the other host read the room's entry meanwhile", async () => {
    const r = room();
    const [seven, eight] = [tag(), tag()];
    const url = (host: RunningHost, t: string) =>
      `${host.url}/api/specimens/tick/data?${new URLSearchParams({ params: JSON.stringify({ dir: s.service.runs, tag: t }), room_id: r })}`;
    const tagOf = (e: StreamEvent) => (e.data as { params?: { tag?: string } }).params?.tag;
    const follower = await openStream(`${s.b.url}/api/rooms/${r}/events`);
    await follower.next((e) => e.event === 'state');
    // The room shows `seven` (it stops at once).
    writeFileSync(join(s.service.runs, `${seven}.stop`), '');
    expect((await fetch(url(s.a, seven))).status).toBe(200);
    await follower.next((e) => e.event === 'result' && tagOf(e) === seven);
    // A peer asks `eight` on A; while it runs, the follower on B reads the entry it was told of.
    const asked = fetch(url(s.a, eight));
    await waitFor(() => existsSync(join(s.service.runs, `${eight}.ticks`)) || undefined, "the peer's computation to start");
    const read = await fetch(url(s.b, seven), { headers: { [FOLLOWER_HEADER]: '1' } });
    expect(read.status).toBe(200);
    await read.arrayBuffer();
    writeFileSync(join(s.service.runs, `${eight}.stop`), '');
    expect((await asked).status).toBe(200);
    // The follower is told of the peer's value, and the room shows it on both hosts.
    await follower.next((e) => e.event === 'result' && tagOf(e) === eight);
    follower.close();
    for (const host of [s.a, s.b]) {
      const again = await openStream(`${host.url}/api/rooms/${r}/events`);
      expect(tagOf(await again.next((e) => e.event === 'state'))).toBe(eight);
      again.close();
    }
  });

  it('are all dropped when Redis comes back without its data, so nothing from before is a hit', async () => {
    const r = room();
    const t = tag();
    await ok(s.a, t, r);
    await ok(s.b, t, r);
    await ok(s.b, t, r);
    expect(runs(t)).toBe(1);
    await s.service.redis.kill();
    await s.service.redis.restart();
    await waitFor(async () => ((await readyz(s.b)).status === 200 ? true : undefined), 'B to be ready again');
    // The room's entry is gone with Redis's data: B must compute, not answer from its copy.
    await waitFor(async () => ((await getData(s.b, 'count', params(t), r)).status === 200 ? true : undefined), 'B to answer again');
    expect(runs(t)).toBe(2);
    await ok(s.a, t, r);
    expect(runs(t)).toBe(2);
  });
});
