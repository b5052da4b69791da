/**
 * @module host-internals
 * The services behind one host's routes, for the project's own test harnesses and benchmarks
 * that drive them below HTTP (a result source's conformance suite, event routes mounted again
 * with other limits). An application embedding the host uses `app.vitrine` instead: this is
 * no part of that API, and nothing in core/ reads it.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../host-context.ts';
import type { InvokerSet } from '../invoke/invoker.ts';

const hosts = new WeakMap<FastifyInstance, { ctx: HostContext; invokers: InvokerSet }>();

/** Called once by createApp for each host it builds. */
export function keepHostContext(app: FastifyInstance, ctx: HostContext, invokers: InvokerSet): void {
  hosts.set(app, { ctx, invokers });
}

function internalsOf(app: FastifyInstance): { ctx: HostContext; invokers: InvokerSet } {
  const kept = hosts.get(app);
  if (!kept) throw new Error('not a host built by createApp');
  return kept;
}

/** The services `app`'s routes share; throws for an instance createApp did not build. */
export function hostContextOf(app: FastifyInstance): HostContext {
  return internalsOf(app).ctx;
}

/** `app`'s invokers by function source (a relay's `remote` among them). */
export function hostInvokersOf(app: FastifyInstance): InvokerSet {
  return internalsOf(app).invokers;
}
