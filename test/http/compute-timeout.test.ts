/**
 * Every path that waits for a computation has a time limit (`--compute-timeout`): `/data`,
 * `/invoke`, a room's entry and MCP `compute` answer 504 saying so once it passes, the
 * computation nobody waits for any more is stopped, and the host serves on. A job keeps its
 * own limit. One host (1 s limit) serves every case.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

let app: FastifyInstance;
let url = '';

beforeAll(async () => {
  app = await createApp({
    pluginsDir: await fixturePluginsDir(),
    specimensDir: await makeSpecimensDir(),
    logLevel: false,
    poolSize: 2,
    viewer: false,
    computeTimeoutSeconds: 1,
    cancelGraceMs: 100,
  });
  addDynamicSpecimen(app, 'spinner', 'spin');
  url = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(() => app?.close());

function expect504(answer: { statusCode: number; json(): unknown }): void {
  expect(answer.statusCode).toBe(504);
  expect(answer.json()).toMatchObject({
    code: 'SPC_ERR_COMPUTE_TIMEOUT',
    detail: expect.stringContaining("computing 'spin' took longer than 1 s (--compute-timeout)"),
  });
}

describe('the compute time limit', () => {
  it('answers /data and /invoke with 504 past it, and stops the computation nobody waits for', async () => {
    expect504(
      await app.inject({ method: 'GET', url: `/api/specimens/spinner/data?params=${encodeURIComponent('{"seconds":60,"seed":1}')}&room_id=${room()}` }),
    );
    expect504(await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'spin', kwargs: { seconds: 60, seed: 2 } } }));
    // The threads come back: a short computation answers.
    await waitFor(
      async () => (/^vitrine_compute_threads_busy 0$/m.test((await app.inject('/metrics')).body) ? true : undefined),
      'the abandoned computations to stop',
    );
    expect((await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'square' } })).statusCode).toBe(200);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it("answers a room's entry with 504 past it", async () => {
    expect504(await app.inject({ method: 'PUT', url: `/api/rooms/${room()}/entry`, payload: { function: 'spin', params: { seconds: 60, seed: 3 } } }));
  });

  it('answers MCP compute with the 504 as a tool error', async () => {
    const client = new Client({ name: 'vitrine-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
    try {
      const answer = (await client.callTool({ name: 'compute', arguments: { function: 'spin', params: { seconds: 60, seed: 4 }, room: room() } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(answer.isError).toBe(true);
      expect(answer.content[0]!.text).toContain("computing 'spin' took longer than 1 s (--compute-timeout)");
    } finally {
      await client.close();
    }
  });

  it('leaves a job to its own limit', async () => {
    const job = (
      await app.inject({ method: 'POST', url: '/api/specimens/spinner/start', payload: { params: { seconds: 3, seed: 5 }, room_id: room() } })
    ).json();
    const done = await waitFor(async () => {
      const progress = (await app.inject(`/api/jobs/${job.job_id}/progress`)).json();
      return progress.status === 'running' ? undefined : progress;
    }, 'the job to finish');
    expect(done.status).toBe('done');
  });
});
