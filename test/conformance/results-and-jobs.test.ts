/**
 * @module results-and-jobs.test
 * The ResultSource and JobService conformance cases (result-source-cases.ts,
 * job-service-cases.ts) against each implementation: the in-memory one of a single host
 * (ResultService + LocalJobs), and the Redis service (RedisResults + RedisJobs) on a real
 * redis-server, the host computing through BullMQ on its own compute node. Each implementation
 * is one host shared by its cases (a host with its worker threads costs more to start than most
 * cases take): every case works in rooms of its own and counts by differences, and leaves no
 * job running, so no case sees another's work.
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { createApp } from '../../core/app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { startRedis, type RedisServer } from '../helpers/redis-server.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { jobServiceCases } from './job-service-cases.ts';
import { resultSourceCases } from './result-source-cases.ts';
import { harnessOf, type ServiceHarness, type ServiceHarnessFactory } from './service-harness.ts';

/** Both suites against one implementation, on one host made by `make` when the first case runs. */
function serviceConformance(label: string, make: ServiceHarnessFactory): void {
  describe(`${label} results and jobs conformance`, () => {
    let host: Promise<ServiceHarness> | undefined;
    afterAll(async () => (await host)?.close());
    // Each case's `use` closes what it is given: the shared host stays open for the next case.
    const shared: ServiceHarnessFactory = async () => ({ ...(await (host ??= make())), close: async () => {} });
    resultSourceCases(shared);
    jobServiceCases(shared);
  });
}

/**
 * A single host on the fixture plugins, as createTestApp makes it (two threads, 200 ms cancel
 * grace), keeping finished jobs for an hour: no case's count changes as earlier ones are forgotten.
 */
const hostOptions = async () => ({
  pluginsDir: await fixturePluginsDir(),
  specimensDir: await makeSpecimensDir(),
  logLevel: false as const,
  poolSize: 2,
  viewer: false,
  cancelGraceMs: 200,
  jobTtlSeconds: 3600,
});

serviceConformance('in-memory', async () => harnessOf(await createApp(await hostOptions())));

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
serviceConformance('redis', async () => harnessOf(await createApp({ ...(await hostOptions()), redis: redis.url })));
