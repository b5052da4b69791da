/**
 * @module trust-across-hosts.test
 * A closed room on a Redis service of two host processes, as the lone host's tests have it: a
 * replay reads the room it plays from as whoever asks it (people/replay-probe.ts); its published
 * array is given at no door to a stranger and at every door to its readers
 * (people/published-doors-probe.ts); a layer changed anonymously says so on both hosts
 * (people/layer-by-probe.ts); a viewer taken
 * off the room through one host loses its stream and live socket on the other, and a user
 * removed with `vitrine users remove --redis` loses every stream, socket and ticket it had on
 * either host (people/readers-probe.ts).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { beforeAll, describe, expect, it } from 'vitest';
import { RedisUserStore } from '../../core/people/redis-user-store.ts';
import { addUser } from '../../core/people/users.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { publishedDoorsProbe } from '../people/published-doors-probe.ts';
import { layerByProbe } from '../people/layer-by-probe.ts';
import { accessChangeProbe, removalProbe } from '../people/readers-probe.ts';
import { replayProbe } from '../people/replay-probe.ts';
import { tokenPeople, type TrustHost } from '../people/trust-host.ts';
import { startService, type Service } from './service.ts';

const run = promisify(execFile);
let service: Service;
let host: TrustHost;

beforeAll(async () => {
  service = await startService({ plugins: await inputPluginsDir() });
  const [a, b] = await Promise.all([service.host(), service.host()]);
  await service.worker();
  const store = new RedisUserStore(new Redis(service.redis.url), true);
  const tokens: Record<string, string> = {};
  for (const name of ['own', 'vi', 'other', 'gone']) tokens[name] = (await addUser(store, name, false))!.token;
  await store.close();
  host = tokenPeople(a.url, tokens, b.url);
}, 180_000);

describe('a closed room on a Redis service of two hosts', () => {
  it('refuses a replay of it (404) to whoever may not read it', () => replayProbe(host));

  it('says by: anonymous of a layer changed anonymously, on both hosts', () => layerByProbe(host));

  it('gives its published array at no door to a stranger and at every door to its viewer and owner', async () => {
    const seen = await publishedDoorsProbe(host);
    console.log(`redis: ${seen.doors} doors; a stranger got ${seen.strangerGot.length}, its readers missed ${seen.readersMissed.length}`);
    expect(seen).toEqual({ strangerGot: [], readersMissed: [], doors: seen.doors });
  });

  it("ends a viewer's stream and socket on the other host once it is taken off the room", async () => {
    console.log(`redis: a viewer's stream and socket on the other host ended ${await accessChangeProbe(host)} ms after the access change answered`);
  });

  it("ends a removed user's streams, sockets and tickets on both hosts", async () => {
    const remove = async (name: string) => void (await run(process.execPath, [CLI, 'users', 'remove', name, '--redis', service.redis.url], { cwd: REPO }));
    const ended = await removalProbe(host, remove);
    console.log(`redis: a removed user's streams and sockets ended ${ended.sinceBegan} ms after the command began (${ended.sinceDone} ms after it ended)`);
  });
});
