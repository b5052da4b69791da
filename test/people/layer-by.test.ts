/**
 * @module layer-by.test
 * A layer changed anonymously says `by: anonymous` (layer-by-probe.ts), on a host in memory (its
 * people named by a trusted login proxy) and on a lone host with a data folder; the Redis
 * service's run is in test/scale/trust-across-hosts.test.ts.
 */
import { describe, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { layerByProbe } from './layer-by-probe.ts';
import { peopleDir } from './people-helpers.ts';
import { proxyPeople, tokenPeople } from './trust-host.ts';

const people = await peopleDir(['own']);
const memory = fileTestApp({ dataDir: null, trustProxy: ['127.0.0.1'] });
const disk = fileTestApp({ dataDir: people.dir });

describe('a layer changed anonymously', () => {
  it('says by: anonymous, in memory', () => layerByProbe(proxyPeople(memory.url)));
  it('says by: anonymous, in a data folder', () => layerByProbe(tokenPeople(disk.url, people.tokens)));
});
