/**
 * @module results-and-jobs.test
 * The ResultSource and JobService conformance cases (result-source-cases.ts,
 * job-service-cases.ts) against each implementation: the in-memory one of a single host
 * (ResultService + LocalJobs), and the Redis service (RedisResults + RedisJobs) on a real
 * redis-server, the host computing through BullMQ on its own compute node.
 */
import { beforeAll, describe } from 'vitest';
import { createApp } from '../../core/app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { jobServiceCases } from './job-service-cases.ts';
import { resultSourceCases } from './result-source-cases.ts';
import { harnessOf, type ServiceHarnessFactory } from './service-harness.ts';

/** Both suites against one implementation; `make` gives a fresh harness per test. */
function serviceConformance(label: string, make: ServiceHarnessFactory): void {
  describe(`${label} results and jobs conformance`, () => {
    resultSourceCases(make);
    jobServiceCases(make);
  });
}

/** A single host on the fixture plugins, as createTestApp makes it (two threads, 200 ms cancel grace). */
const hostOptions = async () => ({
  pluginsDir: await fixturePluginsDir(),
  specimensDir: await makeSpecimensDir(),
  logLevel: false as const,
  poolSize: 2,
  viewer: false,
  cancelGraceMs: 200,
});

serviceConformance('in-memory', async () => harnessOf(await createApp(await hostOptions())));

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
serviceConformance('redis', async () => harnessOf(await createApp({ ...(await hostOptions()), redis: redis.url })));
