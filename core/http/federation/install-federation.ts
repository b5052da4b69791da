/**
 * @module install-federation
 * Turns a host into a relay (`--relay`) or a worker (`--join URL`), or leaves it local.
 * A relay accepts workers on `/ws/federation/{worker_id}`, lists them on
 * `GET /api/federation/workers`, runs their functions through the remote invoker (registered
 * as the invoker of `remote` functions), and passes its reloads on to every worker; on a Redis
 * service it also runs them for every other host. A worker joins its relay once it listens, and re-registers
 * after every reload. The relay's and the worker's modules load only on a host that is one.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import { hostname } from 'node:os';
import { createHostError } from '../../errors.ts';
import type { AfterReloadHook, HostContext } from '../../host-context.ts';
import type { InvokerSet } from '../../invoke/invoker.ts';
import type { LocalRuns } from '../../federation/local-runs.ts';
import type { ServiceRelay } from '../../federation/service-relay.ts';
import { MAX_MESSAGE_BYTES, TOKEN_HEADER } from '../../federation/wire-messages.ts';
import { SMALL_FRAME_BYTES, sizedUpgrades } from '../socket-limits.ts';

/** What federation takes of its host beyond the services the routes share. */
export interface FederationPort {
  /** This host's own result service and job store, as far as federation needs them. */
  local: LocalRuns;
  /** The Redis service's side of a relay, when the host is part of one. */
  relay: ServiceRelay | null;
  /** Invokers by function source: a relay registers `remote`. */
  invokers: InvokerSet;
  /** Adds a step to every reload (a relay reloads its workers, a worker registers again). */
  afterReload(hook: AfterReloadHook): void;
}

async function installRelay(app: FastifyInstance, ctx: HostContext, port: FederationPort): Promise<void> {
  const { local, relay: service } = port;
  const [{ RelayHub }, { RemoteInvoker }, { reachableUrl }] = await Promise.all([
    import('../../federation/relay-hub.ts'),
    import('../../federation/remote-invoker.ts'),
    import('../../federation/reachable-url.ts'),
  ]);
  const hub = new RelayHub(ctx, local, app.log, service);
  const remote = new RemoteInvoker((id) => hub.channelOf(id), { timeoutMs: ctx.options.jobTimeoutSeconds * 1000 });
  port.invokers.register('remote', remote);
  // On a Redis service every host queues relayed computations; this relay runs them.
  await service?.serve(remote);
  port.afterReload(async () => {
    const workers = await hub.reloadWorkers();
    // Totals after the workers' new registrations; `count` stays the relay's own disk count.
    return { specimens: ctx.catalog.list().length, functions: ctx.functions.size, workers };
  });
  // The host's routes register WebSockets with these options; a federation mounted alone registers them itself.
  if (!app.hasDecorator('websocketServer')) await app.register(websocket, { options: { maxPayload: SMALL_FRAME_BYTES, perMessageDeflate: false } });
  // A worker that shows the token at the upgrade gets a socket taking the protocol's large messages;
  // any other peer gets the host's small frames, and the hub refuses it at its hello.
  const trusted = sizedUpgrades(app, MAX_MESSAGE_BYTES);
  app.get<{ Params: { worker_id: string } }>(
    '/ws/federation/:worker_id',
    {
      websocket: true,
      preHandler: async (request, reply) => {
        if (!request.ws || !hub.authorizes(request.headers[TOKEN_HEADER])) return;
        trusted.upgrade(request, reply, (socket) => hub.accept(socket, request.params.worker_id, true));
      },
    },
    (socket, request) => hub.accept(socket, request.params.worker_id, false),
  );
  app.get('/api/federation/workers', async () => hub.list());
  if (service) app.addHook('onListen', async () => void (await service.listening(reachableUrl(app))));
  app.addHook('preClose', async () => hub.close());
}

async function installWorker(app: FastifyInstance, ctx: HostContext, port: FederationPort): Promise<void> {
  const { WorkerLink } = await import('../../federation/worker-link.ts');
  const workerId = ctx.options.workerId ?? hostname();
  const link = new WorkerLink(ctx, port.local, app.log, workerId);
  port.afterReload(async () => link.register());
  app.get('/api/federation/workers', async () => {
    throw createHostError('SPC_ERR_NOT_RELAY');
  });
  // Joins once this host listens, so a relay never lists a worker that is still starting.
  app.addHook('onListen', async () => link.start());
  app.addHook('preClose', async () => link.stop());
}

export async function installFederation(app: FastifyInstance, ctx: HostContext, port: FederationPort): Promise<void> {
  if (ctx.options.mode === 'relay') await installRelay(app, ctx, port);
  else if (ctx.options.mode === 'worker') await installWorker(app, ctx, port);
}
