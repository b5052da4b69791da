/**
 * @module replay-access.test
 * A replay reads the room it plays from as whoever asks it (replay-probe.ts), on a host in
 * memory (its people named by a trusted login proxy) and on a lone host with a data folder
 * (its users' tokens). The Redis service's run is in test/scale/trust-across-hosts.test.ts.
 */
import { describe, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { peopleDir } from './people-helpers.ts';
import { replayProbe } from './replay-probe.ts';
import { proxyPeople, tokenPeople } from './trust-host.ts';

const people = await peopleDir(['own', 'vi', 'other']);
const memory = fileTestApp({ dataDir: null, trustProxy: ['127.0.0.1'] });
const disk = fileTestApp({ dataDir: people.dir });

describe('a replay of a closed room', () => {
  it('is refused (404) to whoever may not read it, in memory', () => replayProbe(proxyPeople(memory.url)));
  it('is refused (404) to whoever may not read it, in a data folder', () => replayProbe(tokenPeople(disk.url, people.tokens)));
});
