/**
 * @module published-access.test
 * An array published for a closed room follows the room's access at every door
 * (published-doors-probe.ts): as a stranger (anonymous, or a user with no access) no door gives
 * it, its name, or its blob or result id, and each answers as for an array that does not exist
 * (or as a read of the room does); as its viewer or owner every door gives it. On a host in
 * memory (its people named by a trusted login proxy) and on a lone host with a data folder; the
 * Redis service's run is in test/scale/trust-across-hosts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { peopleDir } from './people-helpers.ts';
import { publishedDoorsProbe } from './published-doors-probe.ts';
import { proxyPeople, tokenPeople } from './trust-host.ts';

const people = await peopleDir(['own', 'vi', 'other']);
const plugins = await inputPluginsDir();
const memory = fileTestApp({ dataDir: null, trustProxy: ['127.0.0.1'], pluginsDir: plugins });
const disk = fileTestApp({ dataDir: people.dir, pluginsDir: plugins });

describe("a closed room's published array", () => {
  it('is given at no door to a stranger and at every door to its viewer and owner, in memory', async () => {
    const seen = await publishedDoorsProbe(proxyPeople(memory.url));
    console.log(`memory: ${seen.doors} doors; a stranger got ${seen.strangerGot.length}, its readers missed ${seen.readersMissed.length}`);
    expect(seen).toEqual({ strangerGot: [], readersMissed: [], doors: seen.doors });
  });

  it('is given at no door to a stranger and at every door to its viewer and owner, in a data folder', async () => {
    const seen = await publishedDoorsProbe(tokenPeople(disk.url, people.tokens));
    console.log(`data folder: ${seen.doors} doors; a stranger got ${seen.strangerGot.length}, its readers missed ${seen.readersMissed.length}`);
    expect(seen).toEqual({ strangerGot: [], readersMissed: [], doors: seen.doors });
  });
});
