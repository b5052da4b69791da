/**
 * @module scale-service
 * Joins a host to a Redis service (`vitrine serve --redis URL`): its routes take results and
 * jobs through the Redis implementations, room events from every host reach its event
 * streams, and unless `--compute 0` it is also a compute node lending its pool to the
 * service. It lists the workers joined to the service's relays; a relay host (`--relay`) also
 * runs their functions for every host. Without `--redis` none of this is created and nothing
 * external is needed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ComputeAssembly } from './compute-assembly.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { LocalJobs } from '../jobs/local-jobs.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { HEARTBEAT_MS, NODE_EXPIRY_MS, NodeDepartures, NodeDirectory, SETTLE_MS } from '../scale/compute-nodes.ts';
import { Computations } from '../scale/computations.ts';
import type { ComputationTimes } from '../serving/service-computations.ts';
import { RedisUploadStore } from '../uploads/redis-upload-store.ts';
import { joinService, type JoinedService } from './join-service.ts';
import type { HeldNews } from '../redis/held-by-room.ts';
import { RedisHealth } from '../redis/redis-health.ts';
import { RedisJobs } from '../jobs/redis-jobs.ts';
import { RedisResults } from '../serving/redis-results.ts';
import { describeRedisFailure, orUnavailable } from '../redis/redis-unavailable.ts';
import { WorkQueue } from '../scale/work-queue.ts';
import { RelayMirror } from '../scale/relay-mirror.ts';
import { SharedRelay } from '../scale/shared-relay.ts';
import { redactUrl } from '../redact-credentials.ts';
import { BlobLookups } from '../blobs/blob-lookups.ts';
import { START_WAIT_MS, waitAtMost } from '../redis/time-limit.ts';
import { KEYS } from '../redis/redis-keys.ts';

/** Host heartbeat entries this long past their expiry are trimmed by whichever host beats next. */
const TRIM_AFTER_MS = 60_000;

/**
 * Every host of a Redis service, computing or not, says it is alive every 2 s: its id in the
 * `hosts` sorted set, scored by when that word expires. A computation counts the requests of a
 * host waiting on it only while the host's heartbeat lives, so the waiters of a host that was
 * killed stop holding the computation (a DELETE of its last job still stops it). The returned
 * function stops the heartbeat and withdraws the host.
 */
function startHostHeartbeat(redis: Redis, hostId: string): () => Promise<void> {
  const beat = () => {
    const now = Date.now();
    void redis.multi().zadd(KEYS.hosts, now + NODE_EXPIRY_MS, hostId).zremrangebyscore(KEYS.hosts, '-inf', now - TRIM_AFTER_MS).exec().catch(() => {});
  };
  const timer = setInterval(beat, HEARTBEAT_MS).unref();
  // Back from an outage, at once rather than at the next period.
  redis.on('ready', beat);
  beat();
  return async () => {
    clearInterval(timer);
    redis.off('ready', beat);
    await redis.zrem(KEYS.hosts, hostId).catch(() => 0);
  };
}

/** A host's part of a Redis service: its connections, the blob store and its compute node, as it joined (join-service.ts), and more. */
export interface ScaleService extends Pick<JoinedService, 'connections' | 'blobs' | 'node' | 'sharing'> {
  results: RedisResults;
  jobs: RedisJobs;
  /** The result stored under `id`, for `client`: a bounded lookup (blobs/blob-lookups.ts). */
  findResult(id: string, client: string): Promise<StoredResult | null>;
  /** Uploads, kept in the service's blob store. */
  uploads: RedisUploadStore;
  /** A relay host's part in the service (`--relay`): it runs the relayed functions every host queues. */
  relay: SharedRelay | null;
  /** Calls `listener` each time a user of the service is removed (or may have been, unheard); answers how to stop. */
  onUsersChanged(listener: () => void): () => void;
  /** Where this host hears rooms' access change, so it may hold what it read of it. */
  accessNews: HeldNews;
  /** Null when Redis answers, else why not (for /readyz). */
  notReady(): string | null;
  close(): Promise<void>;
}

export function computationTimes(options: Pick<ResolvedHostOptions, 'cacheTtlSeconds' | 'jobTtlSeconds' | 'jobTimeoutSeconds'>): ComputationTimes {
  const jobTtlMs = Math.max(1, options.jobTtlSeconds * 1000);
  const timeoutMs = options.jobTimeoutSeconds * 1000;
  return { cacheTtlMs: options.cacheTtlSeconds * 1000, jobTtlMs, timeoutMs, runTtlMs: timeoutMs + jobTtlMs + 60_000 };
}

export async function createScaleService(deps: {
  url: string;
  hub: EventHub;
  budget: ResultBudget<StoredResult>;
  local: { results: ResultSource; jobs: LocalJobs; store: JobStore };
  /** This process's compute assembly, whose pool the host's compute node lends. */
  compute: ComputeAssembly;
  /** Where relayed workers' specimens are listed (with the assembly's functions). */
  catalog: SpecimenCatalog;
  options: ResolvedHostOptions;
  log: FastifyBaseLogger;
}): Promise<ScaleService> {
  const { options, log } = deps;
  const keepMs = Math.max(options.cacheTtlSeconds, options.jobTtlSeconds) * 1000;
  const joined = await joinService({
    url: deps.url,
    kind: 'host',
    options,
    hub: deps.hub,
    compute: deps.compute,
    lends: options.compute > 0,
    budget: deps.budget,
    keepMs,
    waitMs: START_WAIT_MS,
    eventsWaitMs: START_WAIT_MS,
    log,
  });
  const { connections, events, blobs, node, up, nodeId: hostId, sharing } = joined;
  const health = new RedisHealth(connections.command, deps.url, log, SETTLE_MS);
  const lookups = new BlobLookups((id) => orUnavailable(blobs.find(id)));
  health.start();
  const queue = new WorkQueue(connections.forBullmq(false));
  const times = computationTimes(options);
  const stopHeartbeat = startHostHeartbeat(connections.command, hostId);
  const comps = new Computations({ redis: connections.command, events, blobs, queue, nodes: new NodeDirectory(connections.command, health), times, hostId });
  const results = new RedisResults(comps, deps.local.results, log);
  // A node leaving may leave a job no node can finish: every watcher re-reads once.
  const departures = new NodeDepartures(connections.command, () => events.nudgeAll());
  const jobs = new RedisJobs({
    comps,
    queue,
    departures,
    local: deps.local.jobs,
    store: deps.local.store,
    maxJobs: options.maxJobs,
    maxMessages: options.maxJobMessages,
  });
  if (node) {
    // Waited for a while only: a host whose Redis is down at start still serves its catalog,
    // and its node starts taking work when Redis comes.
    const started = node.start().then(() => true, (error: Error) => (log.warn(`compute node: ${describeRedisFailure(error)}`), false));
    if (up) await waitAtMost(started, START_WAIT_MS);
  }
  const relay =
    options.mode === 'relay'
      ? new SharedRelay({
          nodeId: `${hostId}-relay`,
          connections,
          events,
          blobs,
          functions: deps.compute.functions,
          maxJobMessages: options.maxJobMessages,
          log,
        })
      : null;
  // Every host lists the workers of the service's relays; a relay lists its own through its hub.
  const mirror = new RelayMirror({
    redis: connections.command,
    events,
    lists: { functions: deps.compute.functions, catalog: deps.catalog },
    log,
    self: relay?.nodeId ?? null,
  });
  if (up) await mirror.start();
  else void mirror.start();
  if (options.blobStore) log.info(`result bytes in the blob store at ${redactUrl(options.blobStore)}`);
  log.info(`redis service at ${redactUrl(deps.url)}: ${options.compute > 0 ? `computing on ${options.compute} threads` : 'front end only (--compute 0)'}`);
  return {
    results,
    jobs,
    node,
    sharing,
    uploads: new RedisUploadStore(connections.command, blobs, options.uploadTtlSeconds),
    relay,
    connections,
    blobs,
    notReady: () => {
      const why = health.notReady();
      if (why) return why;
      if (connections.subscriber.status !== 'ready') return `Redis at ${redactUrl(deps.url)} is answering, but this host is not subscribed to its events yet`;
      if (connections.blobs.status !== 'ready')
        return `the blob store's Redis at ${redactUrl(connections.blobUrl)} is not connected (${connections.blobs.status})`;
      return blobs.notReady?.() ?? null;
    },
    findResult: (id, client) => lookups.find(id, client),
    onUsersChanged: (listener) => events.onUsersChanged(listener),
    accessNews: {
      listening: () => events.listening,
      onChange: (listener) => events.onAccessChange(listener),
      onResubscribed: (listener) => events.onResubscribed(listener),
    },
    async close() {
      health.close();
      await stopHeartbeat();
      blobs.close();
      results.abortAll();
      mirror.close();
      await relay?.close();
      await node?.close(true);
      await queue.close().catch(() => {});
      await connections.close();
    },
  };
}
