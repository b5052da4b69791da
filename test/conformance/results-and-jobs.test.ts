/**
 * @module results-and-jobs.test
 * The ResultSource and JobService conformance cases (result-source-cases.ts,
 * job-service-cases.ts) against each implementation. Today: the in-memory one of a single
 * host (ResultService + LocalJobs). The Redis service joins with one more
 * `serviceConformance('redis', factory)` line whose factory starts Redis
 * (helpers/redis-server.ts) and returns `harnessOf(await createApp({ ..., redis: url }))`.
 */
import { describe } from 'vitest';
import { createApp } from '../../core/app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
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
const inMemory: ServiceHarnessFactory = async () =>
  harnessOf(
    await createApp({
      pluginsDir: await fixturePluginsDir(),
      specimensDir: await makeSpecimensDir(),
      logLevel: false,
      poolSize: 2,
      viewer: false,
      cancelGraceMs: 200,
    }),
  );

serviceConformance('in-memory', inMemory);
