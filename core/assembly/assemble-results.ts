/**
 * @module assemble-results
 * The result and job stack of one host: the byte budget shared by everything held, the room
 * cache, result ids, the cache-first result service and the job store; and, with `--redis`,
 * the Redis service in front of them (loaded only then, so a lone host never loads BullMQ).
 * Routes read results and jobs through `results` and `jobs`, whichever of the two answers.
 */
import type { FastifyBaseLogger } from 'fastify';
import { ResultBudget } from '../cache/result-budget.ts';
import { RoomCache } from '../cache/room-cache.ts';
import { jobChannel, roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { roomEventOf } from '../events/layer-slots.ts';
import type { ComputeAssembly } from './compute-assembly.ts';
import type { JobService } from '../jobs/job-service.ts';
import { JobStore } from '../jobs/job-store.ts';
import { LocalJobs } from '../jobs/local-jobs.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { createScaleService, ScaleService } from './scale-service.ts';
import { MemoryUploadStore } from '../uploads/memory-upload-store.ts';
import type { UploadStore } from '../uploads/upload-store.ts';
import { openDurable, type DurableData } from './open-durable.ts';
import { ResultIds, type ResultFinder } from '../serving/result-ids.ts';
import { ResultService } from '../serving/result-service.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import type { DiskKeptResults } from '../blobs/disk-kept-results.ts';
import { FolderReads } from '../blobs/folder-reads.ts';

export interface ResultStack {
  budget: ResultBudget<StoredResult>;
  cache: RoomCache<StoredResult>;
  resultIds: ResultIds;
  /** This host's own result service and job store. */
  local: { results: ResultService; jobs: JobStore };
  /** Results and jobs as routes see them: this host's, or the Redis service's. */
  results: ResultSource;
  jobs: JobService;
  uploads: UploadStore | null;
  scale: ScaleService | null;
  /** A lone host's data folder (`--data-dir`), else null. */
  data: DurableData | null;
  /** Computed results a lone host keeps in its data folder (`--disk-cache-max-bytes`), else null. */
  kept: DiskKeptResults | null;
  close(): Promise<void>;
}

export async function assembleResults(deps: {
  options: ResolvedHostOptions;
  compute: ComputeAssembly;
  catalog: SpecimenCatalog;
  events: EventHub;
  log: FastifyBaseLogger;
  /** Makes a result whose id was named before it was made (an edited labels layer's version). */
  named?: ResultFinder;
}): Promise<ResultStack> {
  const { options, compute, events, log } = deps;
  const budget = new ResultBudget<StoredResult>(options.cacheMaxBytes, resultByteLength);
  const cache = new RoomCache<StoredResult>({ ttlSeconds: options.cacheTtlSeconds, budget });
  const data = await openDurable(options, (line) => log.warn(line));
  // A result id no one holds in memory any more (a snapshot's pin after a restart) is read from the folder.
  // So is a kept result (a room's layer computed before the restart).
  const kept = data && options.diskCacheMaxBytes > 0 ? await keptResults(data, options.diskCacheMaxBytes) : null;
  // Held in memory once read, so a hit after the restart costs no read of the folder.
  const reads = data ? new FolderReads(async (id) => (await data.blobs.find(id)) ?? (await kept?.find(id)) ?? null, budget) : null;
  const resultIds: ResultIds = new ResultIds({
    pool: compute.pools.encode,
    budget,
    ...(deps.named ? { named: deps.named } : {}),
    // The Redis service's blob store (built below: it serves this host's results, which are named
    // by these ids), else the data folder. A host has one or the other, never both.
    stored: (id, client): Promise<StoredResult | null> => (scale ? scale.findResult(id, client) : reads ? reads.find(id) : Promise.resolve(null)),
  });
  const results = new ResultService({
    cache,
    invokers: compute.invokers,
    log,
    publish: (roomId, event) => {
      // A layer's cache slot speaks to its room's streams, naming the layer.
      const target = roomEventOf(roomId, event);
      if (target) events.publish(roomChannel(target.room), target.event);
    },
    idOf: (result) => resultIds.of(result),
    // A slot's kept result (a room's entry, a layer's) is put back in the cache when the slot is asked for.
    recall: kept ? (slotId, key) => kept.recall({ slotId, key }) : null,
  });
  const jobStore = new JobStore({
    ttlSeconds: options.jobTtlSeconds,
    timeoutSeconds: options.jobTimeoutSeconds,
    maxMessages: options.maxJobMessages,
    maxFinished: options.maxFinishedJobs,
    maxRunning: options.maxJobs,
    budget,
    onChange: (job) => events.publish(jobChannel(job.id), { event: 'change', data: null }),
  });
  const jobs = new LocalJobs(jobStore, results, events);
  const scale = options.redis
    ? await startScale({
        url: options.redis,
        hub: events,
        budget,
        local: { results, jobs, store: jobStore },
        compute,
        catalog: deps.catalog,
        options,
        log,
      })
    : null;
  const lone = async () => (data ? diskUploads(data, options.uploadTtlSeconds) : new MemoryUploadStore(budget, options.uploadTtlSeconds));
  const uploads = !options.uploads ? null : (scale?.uploads ?? (await lone()));
  return {
    budget,
    cache,
    resultIds,
    local: { results, jobs: jobStore },
    results: scale?.results ?? results,
    jobs: scale?.jobs ?? jobs,
    uploads,
    scale,
    data,
    kept,
    async close() {
      uploads?.close();
      await scale?.close();
      jobs.close();
      results.abortAll();
      cache.close();
      reads?.close();
      data?.blobs.close();
      await data?.store.close();
    },
  };
}

/** The Redis service in front of this host's results and jobs (loaded only then, so a lone host never loads BullMQ). */
async function startScale(deps: Parameters<typeof createScaleService>[0]): Promise<ScaleService> {
  const { createScaleService } = await import('./scale-service.ts');
  return createScaleService(deps);
}

async function keptResults(data: DurableData, maxBytes: number): Promise<DiskKeptResults> {
  const { DiskKeptResults } = await import('../blobs/disk-kept-results.ts');
  return new DiskKeptResults(data.store, data.blobs, maxBytes);
}

async function diskUploads(data: DurableData, ttlSeconds: number): Promise<UploadStore> {
  const { DiskUploadStore } = await import('../uploads/disk-upload-store.ts');
  return new DiskUploadStore(data.store, data.blobs, ttlSeconds);
}
