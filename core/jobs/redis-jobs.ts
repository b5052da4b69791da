/**
 * @module redis-jobs
 * JobService for a Redis service: a job is a small record in Redis that follows a
 * computation (or holds a room-cache hit's result), so every host answers its progress,
 * result and DELETE. Progress is the computation's stream read by seq, in the same atomic
 * read as the status, so a client that sees a job end has every message before it. Jobs of
 * functions registered in code (which run on this host only) stay in this host's own store.
 */
import { randomUUID } from 'node:crypto';
import type { JobStatus, ProgressMessage, ProgressResponse, StartResponse } from '../wire/wire-types.ts';
import { createHostError, isHostError } from '../errors.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import { keyOf, roomStateOf } from '../serving/result-source.ts';
import type { JobRequest, JobResult, JobService } from './job-service.ts';
import { tooManyJobs, type JobStore } from './job-store.ts';
import type { LocalJobs } from './local-jobs.ts';
import { JobTally } from './job-tally.ts';
import { KEYS } from '../redis/redis-keys.ts';
import { provenanceOf } from '../versions/provenance.ts';
import type { Provenance } from '../wire/provenance-types.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storeInputs } from '../serving/input-refs.ts';
import { laneOf, runsOnService, type ClaimRequest, type ServiceComputations } from '../serving/service-computations.ts';
import { pinnedBundle } from '../registry/function-entry.ts';

/** The work queue as jobs see it: how many computations wait for a compute node. */
export interface PendingWork {
  pending(): Promise<number>;
}

/**
 * Notices compute nodes leaving the service while held (scale/compute-nodes.ts): a job
 * whose node left must be re-read to end. The jobs close it with themselves.
 */
export interface Departures {
  /** Keeps watching while held; returns the release. */
  hold(): () => void;
  close(): void;
}

type StreamEntry = [id: string, fields: string[]];
type JobRead = [status: string, error: string, code: string, fn: string, meta: string, hash: string, messages: StreamEntry[], cid: string];

function toMessage([id, fields]: StreamEntry): ProgressMessage {
  const f: Record<string, string> = {};
  for (let i = 0; i + 1 < fields.length; i += 2) f[fields[i]!] = fields[i + 1]!;
  const message: ProgressMessage = { seq: Number(id.split('-')[0]), text: f.t ?? '', ts: Number(f.ts) };
  if (f.f !== undefined) message.fraction = Number(f.f);
  return message;
}

/** What the jobs of a Redis service work with. */
interface RedisJobsDeps {
  comps: ServiceComputations;
  queue: PendingWork;
  /** Told to nudge every watcher of this host once a compute node leaves. */
  departures: Departures;
  local: LocalJobs;
  store: JobStore;
  maxJobs: number;
  maxMessages: number;
}

export class RedisJobs implements JobService {
  #d: RedisJobsDeps;
  #tally: JobTally;

  constructor(deps: RedisJobsDeps) {
    this.#d = deps;
    const read = async (id: string) => (((await deps.comps.redis.vJobRead(id, '')) as JobRead | null)?.[0] as JobStatus | undefined) ?? null;
    this.#tally = new JobTally(read, deps.comps.times.jobTtlMs);
  }

  async start(request: JobRequest): Promise<StartResponse> {
    if (!runsOnService(request.entry)) return this.#d.local.start(request);
    const id = randomUUID();
    const key = keyOf(request.entry, request.values);
    // What makes the result, kept beside the job's record: any host answering its /result says it.
    const prov = JSON.stringify(provenanceOf(request.entry, request.values));
    const ref = await this.#d.comps.hit(request.roomId, key);
    // A hit only while its bytes are there: an evicted result is a miss, computed again.
    if (ref && !(await orUnavailable(this.#d.comps.blobs.touch(ref, this.#d.comps.times.jobTtlMs)))) await this.#d.comps.forget(request.roomId);
    else if (ref) {
      const { jobTtlMs } = this.#d.comps.times;
      const job = KEYS.job(id);
      const fields = {
        status: 'done',
        meta: ref.meta,
        hash: ref.hash,
        fn: request.entry.name,
        room: request.roomId,
        specimen: request.specimenId ?? '',
        created: Date.now(),
        prov,
      };
      await orUnavailable(this.#d.comps.redis.multi().hset(job, fields).pexpire(job, jobTtlMs).exec());
      this.#tally.add(id, 'done');
      return { job_id: id, status: 'done' };
    }
    if ((await orUnavailable(this.#d.queue.pending())) >= this.#d.maxJobs) throw tooManyJobs(this.#d.maxJobs);
    const claim: ClaimRequest = {
      fn: request.entry.name,
      ...pinnedBundle(request.entry),
      key,
      values: request.values,
      room: request.roomId,
      specimen: request.specimenId,
      jobId: id,
      lane: laneOf(request.entry),
      state: { ...roomStateOf(request) },
    };
    // A job with inputs is answered at once; its inputs load on this host (their progress in
    // the job's messages) and only then is the computation queued (see serving/input-refs.ts).
    const { cid, created } = request.inputs ? await this.#d.comps.reserve(claim) : await this.#d.comps.claim(claim);
    if (created && request.inputs) void this.#queueWithInputs(cid, request, claim);
    const job = KEYS.job(id);
    await orUnavailable(this.#d.comps.redis.multi().hset(job, 'prov', prov).pexpire(job, this.#d.comps.times.jobTtlMs).exec());
    const events = this.#d.comps.events;
    this.#tally.add(id, 'running', (mark) => {
      const offs = [events.watch(cid, mark), events.watch(id, mark)];
      return () => offs.forEach((off) => off());
    });
    return { job_id: id, status: 'running' };
  }

  /**
   * Loads the inputs of reserved computation `cid`, reporting their progress as its own, then
   * queues it; a failure to load ends it with that error. Loading stops when the computation
   * ends meanwhile (the job was cancelled) or the job timeout passes.
   */
  async #queueWithInputs(cid: string, request: JobRequest, claim: ClaimRequest): Promise<void> {
    const comps = this.#d.comps;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, comps.times.timeoutMs).unref();
    const unwatch = comps.events.watch(cid, () => {
      void comps.redis.hget(KEYS.comp(cid), 'status').then(
        (status) => status !== 'running' && controller.abort(),
        () => {},
      );
    });
    const onProgress = (u: ProgressUpdate) => void comps.redis.vProgress(cid, u.text, u.ts, u.fraction ?? '', this.#d.maxMessages).catch(() => {});
    try {
      const inputs = await storeInputs({ ...request, onProgress }, comps.blobs, comps.times.runTtlMs, controller.signal);
      await comps.queue(cid, { ...claim, ...(inputs ? { inputs } : {}) });
    } catch (error) {
      // Cancelled: the record already says so, and failing it again changes nothing.
      if (timedOut) await comps.fail(cid, `timed out after ${comps.times.timeoutMs / 1000} s loading its inputs`, 'SPC_ERR_JOB_FAILED');
      else await comps.fail(cid, error instanceof Error ? error.message : String(error), isHostError(error) ? error.code : 'SPC_ERR_FUNCTION_FAILED');
    } finally {
      clearTimeout(timer);
      unwatch();
    }
  }

  /**
   * The job's record; a running one whose function no live node can run any more (the last
   * node left after it was queued) is ended first, so it answers 503's reason, not `running`
   * until the job timeout.
   */
  async #read(id: string, since: number | null): Promise<JobRead> {
    const read = async () => {
      const reply = (await orUnavailable(this.#d.comps.redis.vJobRead(id, since === null ? '' : `${Math.max(0, since + 1)}-0`))) as JobRead | null;
      if (!reply) throw createHostError('SPC_ERR_JOB_NOT_FOUND', id);
      return reply;
    };
    const reply = await read();
    const [status, , , fn, , , , cid] = reply;
    return status === 'running' && cid && (await this.#d.comps.abandonIfNoNode(cid, fn)) ? read() : reply;
  }

  async progress(id: string, since: number): Promise<ProgressResponse> {
    if (this.#d.store.get(id)) return this.#d.local.progress(id, since);
    const [status, error, , , , , messages] = await this.#read(id, since);
    return { status: status as JobStatus, messages: messages.map(toMessage), error: status === 'error' ? error : null };
  }

  async result(id: string): Promise<JobResult> {
    if (this.#d.store.get(id)) return this.#d.local.result(id);
    const [status, error, , fn, meta, hash] = await this.#read(id, null);
    if (status === 'running') throw createHostError('SPC_ERR_JOB_RUNNING', id);
    if (status !== 'done') throw createHostError('SPC_ERR_JOB_FAILED', id, error);
    const result = await this.#d.comps.read({ hash, meta });
    if (!result) throw createHostError('SPC_ERR_JOB_RESULT_EVICTED', id);
    const provenance = await this.#provenance(id);
    return { result, functionName: fn, ...(provenance ? { provenance } : {}) };
  }

  /** What made job `id`'s result, as its record keeps it (null for a job started before it was kept). */
  async #provenance(id: string): Promise<Provenance | null> {
    const said = await orUnavailable(this.#d.comps.redis.hget(KEYS.job(id), 'prov'));
    try {
      return said ? (JSON.parse(said) as Provenance) : null;
    } catch {
      return null;
    }
  }

  async cancel(id: string): Promise<boolean> {
    if (this.#d.store.get(id)) return this.#d.local.cancel(id);
    return this.#d.comps.cancelJob(id);
  }

  watch(id: string, onChange: () => void): () => void {
    if (this.#d.store.get(id)) return this.#d.local.watch(id, onChange);
    const events = this.#d.comps.events;
    // Nudges are the only reads: published by whoever changes the job, sent to every watcher
    // once the subscription is back after a reconnection, and when a compute node leaves.
    const offs = [events.watch(id, onChange), this.#d.departures.hold()];
    let stopped = false;
    // The computation's nudges (progress, end) come under its own id; a failed look-up is
    // retried, since without it the end of the job would only be seen by re-reading.
    const follow = (attempt: number) =>
      void this.#d.comps.redis.hget(KEYS.job(id), 'comp').then(
        (cid) => {
          if (stopped || !cid) return;
          offs.push(events.watch(cid, onChange));
          onChange();
        },
        () => {
          if (!stopped && attempt < 10) setTimeout(() => follow(attempt + 1), 250 * (attempt + 1)).unref();
        },
      );
    follow(0);
    return () => {
      stopped = true;
      for (const off of offs) off();
    };
  }

  /** Jobs this host started, by state (the local store's and the service's). */
  counts(): Record<JobStatus, number> {
    const local = this.#d.local.counts();
    const service = this.#tally.counts();
    return { running: local.running + service.running, done: local.done + service.done, error: local.error + service.error };
  }

  close(): void {
    this.#d.departures.close();
    this.#tally.close();
    this.#d.local.close();
  }
}
