/**
 * @module app
 * `createApp(options)`: builds a host and returns the fastify instance without listening
 * (server.ts listens). It reads as the list of what a host is made of: fastify with its
 * guards, the host's services (put together in assembly/assemble-host.ts, the one place a
 * host, a worker and their Redis half are built), events, operations, the plugins, the routes
 * and federation.
 *
 * @example
 * const app = await createApp({ specimensDir: null, pluginsDir: null, meshFunctions: { cube } });
 * const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'cube' } });
 */
import type { FastifyInstance } from 'fastify';
import { agentRoutes } from './http/agent/routes-agent.ts';
import { assembleAgent } from './assembly/assemble-agent.ts';
import { assembleHost } from './assembly/assemble-host.ts';
import { assemblePeople } from './assembly/assemble-people.ts';
import { keepHostContext } from './assembly/host-internals.ts';
import { installFederation } from './http/federation/install-federation.ts';
import { createFastify } from './http/create-fastify.ts';
import { installEvents } from './http/events/install-events.ts';
import { installRoutes } from './http/install-routes.ts';
import { installPublishedRefresh } from './http/published/published-refresh.ts';
import { isGuardedRoute } from './http/ops/admin-guard.ts';
import { installOps } from './http/ops/install-ops.ts';
import { installOpenApiCollector } from './http/ops/openapi.ts';
import { resolveHostOptions, type HostOptions } from './options.ts';
import { roomsReader } from './http/people/install-people.ts';
import { peopleRoutes } from './http/people/routes-people.ts';
import { ROOM_ACCESS } from './events/channels.ts';
import type { AnyFunction } from './registry/code-registration.ts';

export type { VitrineHandle } from './assembly/vitrine-handle.ts';

export interface CreateAppOptions extends HostOptions {
  /** Mesh functions by name, registered in code. */
  meshFunctions?: Record<string, AnyFunction>;
}

export async function createApp(input: CreateAppOptions = {}): Promise<FastifyInstance> {
  const options = resolveHostOptions(input);
  const app = await createFastify(options);
  const host = await assembleHost(options, app.log);
  const { ctx, handle } = host;
  keepHostContext(app, ctx, host.federation.invokers);
  app.decorate('vitrine', handle);
  for (const [name, fn] of Object.entries(input.meshFunctions ?? {})) handle.registerFunction(name, fn, { returnType: 'mesh' });

  // Before every other hook: the admin guard and the routes ask who a request is; every change a
  // request makes is then its user's, in its room's events and its room's log.
  const home = { stores: host.people, hub: ctx.events, usersChanged: host.scale?.onUsersChanged, specimen: (id: string) => ctx.catalog.get(id) };
  const { people, readers } = assemblePeople(app, options, home, isGuardedRoute);
  const agent = assembleAgent(ctx, people, host.conversations, { ids: host.clientIds, relay: host.agentRelay }, app.log);
  await installOpenApiCollector(app);
  await installEvents(app, ctx, { maxStreams: options.maxEventStreams, readers });
  const readiness = await installOps(app, ctx, { scheduler: host.scheduler, agent: agent.figures, meshLevels: host.own.meshes.counts });
  let loaded = false;
  let closing = false;
  readiness.add('plugins', () => (loaded ? null : 'plugins are still loading'));
  readiness.add('host', () => (closing ? 'the host is shutting down' : null));
  readiness.add('python', () => host.pythonNotReady());
  const scale = host.scale;
  if (scale) readiness.add('redis', () => scale.notReady());
  app.addHook('preClose', async () => void (closing = true));
  await ctx.reload();
  loaded = true;

  installPublishedRefresh(app, ctx.catalog, ctx.published);
  await installRoutes(app, ctx, { ...host.own, readable: roomsReader(people), readers, headsets: agent.headsets });
  await app.register(agentRoutes, { agent, options, readers });
  await app.register(peopleRoutes, { people, announce: (roomId, access) => ctx.rooms.announce(roomId, ROOM_ACCESS, access) });
  await installFederation(app, ctx, host.federation);
  app.addHook('onClose', async () => {
    agent.close();
    await host.close();
  });
  return app;
}
