/**
 * @module routes-health
 * `GET /healthz`: 200 while the process runs (load shedding lets it through). `GET /readyz`:
 * 200 when every readiness check passes, else 503 naming the first that does not. Checks are
 * named functions other parts add (plugins loaded; a Redis service adds its reachability).
 */
import type { FastifyInstance } from 'fastify';
import { createHostError } from '../../errors.ts';

/** A readiness check: null when ready, else why not. */
export type ReadinessCheck = () => Promise<string | null> | string | null;

export class Readiness {
  #checks = new Map<string, ReadinessCheck>();

  add(name: string, check: ReadinessCheck): void {
    this.#checks.set(name, check);
  }

  /** The first failing check's reason, or null. */
  async notReady(): Promise<string | null> {
    for (const [name, check] of this.#checks) {
      const why = await check();
      if (why !== null) return `${name}: ${why}`;
    }
    return null;
  }
}

export async function healthRoutes(app: FastifyInstance, opts: { readiness: Readiness }): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    const why = await opts.readiness.notReady();
    if (why !== null) throw createHostError('SPC_ERR_NOT_READY', why);
    return { status: 'ready' };
  });
}
