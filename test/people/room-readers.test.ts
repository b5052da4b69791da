/**
 * @module room-readers.test
 * What someone keeps open on a room ends once they may no longer read it (readers-probe.ts): on a
 * host in memory (its people named by a trusted login proxy) a viewer taken off a room's access
 * loses its stream and live socket; on a lone host with a data folder so does a viewer, and a user
 * removed by the `vitrine users remove` command beside the host loses every stream, socket and
 * ticket it had. The registry itself, over a host's memory users: a removed user's readers end,
 * a reader registered after a change it missed ends at once, others stay; and over a data
 * folder's users, the command's news heard in the same turn as a read made before its change
 * still ends the removed user's readers. The Redis service's run is in
 * test/scale/trust-across-hosts.test.ts.
 */
import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EventHub } from '../../core/events/event-hub.ts';
import { ROOM_ACCESS, roomChannel } from '../../core/events/channels.ts';
import { MemoryAccessStore } from '../../core/people/memory-access-store.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { MemoryTicketStore } from '../../core/people/memory-ticket-store.ts';
import { LmdbUserStore, USERS_CHANGED_FILE, usersOfDataDir } from '../../core/people/lmdb-user-store.ts';
import { MemoryUserStore } from '../../core/people/memory-user-store.ts';
import { People } from '../../core/people/people.ts';
import { RoomReaders } from '../../core/people/room-readers.ts';
import { createProxyTrust } from '../../core/people/trusted-proxy.ts';
import { addUser, stillThere, userOfToken } from '../../core/people/users.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { settled, waitFor } from '../helpers/wait-for.ts';
import { peopleDir } from './people-helpers.ts';
import { accessChangeProbe, removalProbe } from './readers-probe.ts';
import { proxyPeople, tokenPeople } from './trust-host.ts';

const run = promisify(execFile);
const people = await peopleDir(['own', 'vi', 'other', 'gone']);
const memory = fileTestApp({ dataDir: null, trustProxy: ['127.0.0.1'] });
const disk = fileTestApp({ dataDir: people.dir });

describe('what a reader keeps open on a room', () => {
  it('ends once a viewer is taken off the room, in memory', async () => {
    console.log(`memory: a viewer's stream and socket ended ${await accessChangeProbe(proxyPeople(memory.url))} ms after the access change answered`);
  });

  it('ends once a viewer is taken off the room, or its user is removed by the command, in a data folder', async () => {
    const host = tokenPeople(disk.url, people.tokens);
    console.log(`data folder: a viewer's stream and socket ended ${await accessChangeProbe(host)} ms after the access change answered`);
    const remove = async (name: string) => void (await run(process.execPath, [CLI, 'users', 'remove', name, '--data-dir', people.dir], { cwd: REPO }));
    const ended = await removalProbe(host, remove);
    console.log(`data folder: a removed user's streams and sockets ended ${ended.sinceBegan} ms after the command began (${ended.sinceDone} ms after its end)`);
  });
});

describe('the registry of a room\'s readers', () => {
  it("ends a removed user's readers as the memory users' store says of the change, and a reader that missed a change at once", async () => {
    const hub = new EventHub();
    const stores = { users: new MemoryUserStore(), tickets: new MemoryTicketStore(), access: new MemoryAccessStore(new MemoryRoomLog(3600)) };
    const service = new People(stores, { adminToken: null, trust: createProxyTrust([]), userHeader: 'x-forwarded-user' });
    const readers = new RoomReaders(hub, service.readerChecks(), (message, error) => { throw new Error(`${message}: ${String(error)}`); });
    stores.users.watch({ changed: () => void readers.usersChanged(), lost: () => {} });
    const ada = (await userOfToken(stores.users, (await addUser(stores.users, 'ada', false))!.token))!;
    const bob = (await userOfToken(stores.users, (await addUser(stores.users, 'bob', false))!.token))!;
    const ended: string[] = [];
    readers.register('lab', ada, () => ended.push('ada'));
    readers.register('lab', bob, () => ended.push('bob'));
    readers.register('lab', null, () => ended.push('anonymous'));
    await stores.users.remove('bob');
    await waitFor(() => (ended.length > 0 ? true : undefined), "bob's reader to end");
    expect(ended).toEqual(['bob']);
    // The room closed to everyone but ada, as every host hears it: the anonymous reader ends.
    const access = { owner: 'ada', editors: [], viewers: [], public: 'none' as const };
    await stores.access.set('lab', access, null);
    hub.publish(roomChannel('lab'), { event: ROOM_ACCESS, data: access });
    expect(ended).toEqual(['bob', 'anonymous']);
    expect(readers.count('lab')).toBe(1);
    // A reader registered after a change it was not there to hear (a request checked before it) ends at once.
    readers.register('lab', null, () => ended.push('late'));
    await waitFor(() => (ended.includes('late') ? true : undefined), 'the late reader to end');
    expect(readers.count('lab')).toBe(1);
    readers.close();
    await service.close();
  });

  it("ends a removed user's readers when the command's news comes in the same turn as a read made before its change", async () => {
    // A data folder's reads share a snapshot until the event loop's next timers; news of another
    // process's change heard within that turn must still be answered from the changed store.
    const { dir, tokens } = await peopleDir(['ada', 'bob']);
    const users = new LmdbUserStore(usersOfDataDir(dir));
    const readers = new RoomReaders(new EventHub(), { mayRead: async () => true, stillThere: (who) => stillThere(users, who) }, (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    });
    const ended: string[] = [];
    for (const name of ['ada', 'bob']) readers.register('lab', (await userOfToken(users, tokens[name]!))!, () => ended.push(name));
    const sweeps: Promise<void>[] = [];
    let removed = false;
    const stop = users.watch({
      changed: () => {
        const sweep = readers.usersChanged();
        if (removed) return void sweeps.push(sweep);
        // Within this turn, after the sweep's reads: the command removes bob and tells every host.
        removed = true;
        execFileSync(process.execPath, [CLI, 'users', 'remove', 'bob', '--data-dir', dir], { cwd: REPO, stdio: 'ignore' });
      },
      lost: () => expect.fail('the watch was lost'),
    })!;
    try {
      writeFileSync(join(dir, USERS_CHANGED_FILE), 'news\n');
      await waitFor(() => (sweeps.length > 0 ? true : undefined), "the command's news");
      await settled(Promise.all(sweeps), "the sweeps on the command's news");
      expect(ended).toEqual(['bob']);
    } finally {
      stop();
      readers.close();
      await users.close();
    }
  });
});
