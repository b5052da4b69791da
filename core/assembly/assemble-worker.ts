/**
 * @module assemble-worker
 * A compute-only `vitrine worker`, put together: the same compute half a host has (its
 * specimens left out: a worker serves none), joined to the Redis service the same way a host
 * joins it, with its compute node taking work. It keeps no results in memory: hosts read
 * them from Redis.
 */
import { EventHub } from '../events/event-hub.ts';
import type { ResolvedHostOptions } from '../options.ts';
import { redactUrl } from '../redact-credentials.ts';
import { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ComputeNode, NodeLog } from '../scale/compute-node.ts';
import { assembleCompute } from './compute-assembly.ts';
import { joinService } from './join-service.ts';
import { START_WAIT_MS } from '../redis/time-limit.ts';

export interface WorkerAssembly {
  /** The node taking the service's computations (already started). */
  node: ComputeNode;
  /**
   * Stops taking work and ends: running computations finish (up to the node's bound; past it,
   * or at once when `force`, they are handed back to the service), then the pools and the
   * connections close.
   */
  close(force: boolean): Promise<void>;
}

export async function assembleWorker(options: ResolvedHostOptions, log: NodeLog): Promise<WorkerAssembly> {
  const url = options.redis;
  if (!url) throw new Error('--redis URL is required');
  const compute = await assembleCompute(options, log);
  const counts = await compute.reload(new SpecimenCatalog(() => {}));
  for (const line of counts.problems) log.warn(line);
  const joined = await joinService({ url, kind: 'worker', options, hub: new EventHub(), compute, lends: true, budget: null, waitMs: START_WAIT_MS, log });
  const node = joined.node!;
  await node.start();
  log.info(`${compute.functions.size} functions on ${options.poolSize} threads, computing for ${redactUrl(url)}`);
  return {
    node,
    async close(force) {
      await node.close(force);
      await compute.close();
      await joined.connections.close();
    },
  };
}
