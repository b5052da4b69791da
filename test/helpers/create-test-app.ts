/**
 * createTestApp(): a real host (createApp) on the fixture plugins and a fresh specimens
 * directory, with short time-to-lives and a two-thread pool, closed after the test.
 */
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { createApp, type CreateAppOptions } from '../../core/app.ts';
import { fixturePluginsDir } from './fixture-plugins.ts';
import { makeSpecimensDir } from './specimens-dir.ts';
import { STATE_WAIT_MS, waitFor } from './wait-for.ts';

export async function createTestApp(options: CreateAppOptions = {}): Promise<FastifyInstance> {
  const app = await createApp({
    pluginsDir: await fixturePluginsDir(),
    specimensDir: await makeSpecimensDir(),
    logLevel: false,
    poolSize: 2,
    viewer: false,
    cancelGraceMs: 200,
    ...options,
  });
  onTestFinished(() => app.close());
  return app;
}

/** Shows a registered function (e.g. one of the fixture bundle's) as a dynamic specimen. */
export function addDynamicSpecimen(app: FastifyInstance, id: string, functionName: string): void {
  app.vitrine.showSpecimen({
    id, display_name: id, description: '', type: 'mesh', tags: [], is_dynamic: true, function_name: functionName,
    thumbnail_file: null, thumbnail: { kind: 'none' }, story: null, origin: 'code',
  });
}

/** A room id no other test uses (the one helper for it, here for the suites that build hosts). */
export { room } from './room.ts';

/** Waits (bounded) until a job is terminal, returning the last progress body. */
export async function waitForJob(
  app: FastifyInstance,
  jobId: string,
  limitMs = STATE_WAIT_MS,
): Promise<{ status: string; messages: { seq: number; text: string; ts: number }[]; error: string | null }> {
  return waitFor(
    async () => {
      const body = (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}/progress` })).json();
      return body.status === 'running' ? undefined : body;
    },
    `job ${jobId} to end`,
    limitMs,
  );
}
