/**
 * @module host-internals
 * The services behind one host's routes, for the project's own test harnesses and benchmarks
 * that drive them below HTTP (a result source's conformance suite, event routes mounted again
 * with other limits). An application embedding the host uses `app.vitrine` instead: this is
 * no part of that API, and nothing in core/ reads it.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../host-context.ts';

const contexts = new WeakMap<FastifyInstance, HostContext>();

/** Called once by createApp for each host it builds. */
export function keepHostContext(app: FastifyInstance, ctx: HostContext): void {
  contexts.set(app, ctx);
}

/** The services `app`'s routes share; throws for an instance createApp did not build. */
export function hostContextOf(app: FastifyInstance): HostContext {
  const ctx = contexts.get(app);
  if (!ctx) throw new Error('not a host built by createApp');
  return ctx;
}
