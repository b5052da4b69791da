/**
 * createTestApp(): a real host (createApp) on the fixture plugins and a fresh specimens
 * directory, with short time-to-lives and a two-thread pool, closed after the test.
 * fileTestApp(): the same host (without the short cancel grace) shared by a whole file's
 * tests, listening on loopback before them and closed after them.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import { createApp, type CreateAppOptions } from '../../core/app.ts';
import { fixturePluginsDir } from './fixture-plugins.ts';
import { makeSpecimensDir } from './specimens-dir.ts';
import { STATE_WAIT_MS, waitFor } from './wait-for.ts';

/** A host on the fixture plugins and a fresh specimens directory (unless `options` name one, or null). */
async function fixtureApp(options: CreateAppOptions): Promise<FastifyInstance> {
  const specimensDir = 'specimensDir' in options ? options.specimensDir : await makeSpecimensDir();
  return createApp({ pluginsDir: await fixturePluginsDir(), logLevel: false, poolSize: 2, viewer: false, ...options, specimensDir });
}

export async function createTestApp(options: CreateAppOptions = {}): Promise<FastifyInstance> {
  const app = await fixtureApp({ cancelGraceMs: 200, ...options });
  onTestFinished(() => app.close());
  return app;
}

/** A file's one host: `app`, and `url` on loopback, both set once the file's beforeAll has run. */
export interface FileTestApp {
  readonly app: FastifyInstance;
  readonly url: string;
}

/**
 * Starts one host for the calling file's tests before they run (within `timeoutMs`, for a
 * slow first build of the fixtures) and closes it after them. Called at the top of a file;
 * `options` may be made in the file's beforeAll (e.g. naming a server the file starts first).
 */
export function fileTestApp(options: CreateAppOptions | (() => Promise<CreateAppOptions>) = {}, timeoutMs?: number): FileTestApp {
  const host = { app: undefined as unknown as FastifyInstance, url: '' };
  beforeAll(async () => {
    host.app = await fixtureApp(typeof options === 'function' ? await options() : options);
    host.url = await host.app.listen({ host: '127.0.0.1', port: 0 });
  }, timeoutMs);
  afterAll(() => host.app?.close());
  return host;
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
