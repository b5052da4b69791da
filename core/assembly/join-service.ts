/**
 * @module join-service
 * How one process joins a Redis service, the same way for `vitrine serve --redis` and for
 * `vitrine worker`: its connections (the service's Redis, and the blob store's when that is a
 * Redis of its own), a bounded first wait for Redis to answer, the service's events fanned into
 * this process's hub, the blob store holding result bytes, and the compute node that lends this
 * process's pool to the service (not started: a host waits for it a while only, a worker until
 * it takes work). What differs between the two is what they add on top: a host its Redis
 * results and jobs, health, heartbeat and relay lists (scale-service.ts); a worker nothing.
 */
import { hostname } from 'node:os';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { Invoker } from '../invoke/invoker.ts';
import type { ResolvedHostOptions } from '../options.ts';
import { redactUrl } from '../redact-credentials.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { BlobStore } from '../blobs/blob-store.ts';
import { createComputeNode, type ComputeNode, type NodeLog } from '../scale/compute-node.ts';
import { blobRedisUrl, openBlobStore } from '../blobs/open-blob-store.ts';
import { createRedisConnections, type RedisConnections } from '../redis/redis-connections.ts';
import { RedisEvents } from '../redis/redis-events.ts';
import type { PluginHome } from '../versions/reload-sources.ts';
import { RedisSharedBundles } from '../versions/redis-shared-bundles.ts';
import { VersionSharing } from '../versions/version-sharing.ts';

/** Which kind of process joins: it names the node and says what waits for a silent Redis. */
export type JoiningKind = 'host' | 'worker';

export type JoinOptions = Pick<ResolvedHostOptions, 'blobStore' | 's3Endpoint' | 's3TimeoutSeconds' | 'compute' | 'maxJobMessages' | 'cacheMaxBytes'>;

/** A process's part of a Redis service, before what the host or the worker adds to it. */
export interface JoinedService {
  /** This process's id as a node of the service (its compute node and heartbeat use it). */
  nodeId: string;
  /** Whether Redis answered within the first wait. */
  up: boolean;
  connections: RedisConnections;
  events: RedisEvents;
  /** Where the service keeps result bytes (snapshots pin theirs here). */
  blobs: BlobStore;
  /** The compute node lending this process's pool, not yet started; null when it lends none. */
  node: ComputeNode | null;
  /** The plugin versions the service's hosts and workers share (what a reload offers and takes), or null. */
  sharing: VersionSharing | null;
}

/** What a silent Redis means for each kind of process, said once at start. */
const WHEN_DOWN: Record<JoiningKind, string> = {
  host: 'requests that need it answer 503, and /readyz says so, until it does',
  worker: 'computing starts when it does',
};

/** A unique id for this process as a node of the service. */
export function nodeIdOf(kind: JoiningKind): string {
  return `${hostname()}-${kind}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
}

export async function joinService(deps: {
  url: string;
  kind: JoiningKind;
  options: JoinOptions;
  /** Where the service's room, job and host events are published in this process. */
  hub: EventHub;
  /** The compute half whose pool the node lends; its functions are the ones the node runs. */
  compute: { functions: FunctionRegistry; plugins: Invoker; home: PluginHome };
  /** Whether this process lends threads (a host with `--compute 0` does not). */
  lends: boolean;
  /** The budget cold reads of result bytes are held in; null keeps none in memory (a worker). */
  budget: ResultBudget<StoredResult> | null;
  /** How long held result bytes are kept after their last use. */
  keepMs?: number;
  /** Longest wait for Redis to answer before going on without it. */
  waitMs: number;
  /** How long the events subscription waits when Redis answered; none when it did not. */
  eventsWaitMs?: number;
  log: NodeLog;
}): Promise<JoinedService> {
  const { url, kind, options, log } = deps;
  const connections = createRedisConnections(url, blobRedisUrl(url, options.blobStore));
  const up = await connections.ready(deps.waitMs);
  if (!up) log.warn(`Redis at ${redactUrl(url)} does not answer yet${kind === 'host' ? ': ' : '; '}${WHEN_DOWN[kind]}`);
  const events = new RedisEvents(connections.subscriber, deps.hub);
  await events.start(up ? deps.eventsWaitMs : 0);
  let blobs: BlobStore;
  try {
    blobs = await openBlobStore(options, { client: connections.blobs, isServiceRedis: connections.blobUrl === url }, deps.budget, deps.keepMs);
  } catch (error) {
    // Refused at start (a bucket that does not exist): nothing opened here may keep the process alive.
    await connections.close();
    throw error;
  }
  const nodeId = nodeIdOf(kind);
  // The service's hosts and workers share the plugin versions they load, by bundle id.
  const { home } = deps.compute;
  const sharing = home.load.kept ? new VersionSharing(new RedisSharedBundles(connections.command, connections.blobs), home, home.load.kept) : null;
  const pinned = sharing ? (name: string, bundle: string) => sharing.entry(name, bundle) : undefined;
  const node = deps.lends ? createComputeNode(deps.compute, options, { nodeId, connections, events, blobs, log, pinned }) : null;
  return { nodeId, up, connections, events, blobs, node, sharing };
}
