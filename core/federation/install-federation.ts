/**
 * @module install-federation
 * Turns a host into a relay (`--relay`) or a worker (`--join URL`), or leaves it local.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../host-context.ts';

export async function installFederation(app: FastifyInstance, ctx: HostContext): Promise<void> {
  if (ctx.options.mode === 'local') return;
  void app;
  throw new Error(`${ctx.options.mode} mode is not available yet`);
}
