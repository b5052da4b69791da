/**
 * createTestApp(): a real host (createApp) on the fixture plugins and a fresh specimens
 * directory, with short time-to-lives and a two-thread pool, closed after the test.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import { createApp, type CreateAppOptions } from '../../core/app.ts';
import { fixturePluginsDir } from './fixture-plugins.ts';
import { makeSpecimensDir } from './specimens-dir.ts';

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
  app.vitrine.context.catalog.addToSource('code', 'code', {
    id, display_name: id, description: '', type: 'mesh', tags: [], is_dynamic: true, function_name: functionName,
    thumbnail_file: null, thumbnail: { kind: 'none' }, story: null, origin: 'code',
  });
}

/** A room id no other test uses. */
export function room(): string {
  return `room-${randomUUID()}`;
}

/** Polls a job until it is terminal (bounded), returning the last progress body. */
export async function waitForJob(app: FastifyInstance, jobId: string, tries = 400): Promise<{ status: string; messages: { seq: number; text: string; ts: number }[]; error: string | null }> {
  for (let i = 0; i < tries; i++) {
    const res = await app.inject({ method: 'GET', url: `/api/jobs/${jobId}/progress` });
    const body = res.json();
    if (body.status !== 'running') return body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`job ${jobId} still running after ${tries} polls`);
}
