/**
 * @module job
 * One background job: its status, ordered progress messages, error and result, with its live
 * state (abort controller, sweep timer); and its wire shapes: the start response, the progress
 * response and the result lookup (200 done, 409 running, 410 error or result dropped by the byte
 * budget, 404 unknown).
 */
import { createHostError } from '../errors.ts';
import type { Provenance } from '../wire/provenance-types.ts';
import type { JobStatus, ProgressMessage, ProgressResponse, StartResponse } from '../wire/wire-types.ts';
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';

export interface JobMeta {
  specimenId: string | null;
  functionName: string;
  roomId: string;
  /** What computes it. */
  provenance?: Provenance;
}

export class Job {
  readonly id: string;
  readonly meta: JobMeta;
  readonly createdAt = Date.now();
  readonly controller = new AbortController();
  status: JobStatus = 'running';
  error: string | null = null;
  result: StoredResult | null = null;
  /** The host's byte budget dropped the result of this done job (its /result is then 410). */
  resultEvicted = false;
  finishedAt: number | null = null;
  /** The kept messages are `#messages` from `#head` on (dropping the oldest moves the head, not the rest). */
  #messages: ProgressMessage[] = [];
  #head = 0;
  #nextSeq = 0;
  #maxMessages: number;
  sweepTimer: NodeJS.Timeout | null = null;

  constructor(id: string, meta: JobMeta, maxMessages: number) {
    this.id = id;
    this.meta = meta;
    this.#maxMessages = maxMessages;
  }

  /** The kept progress messages, oldest first. */
  get messages(): ProgressMessage[] {
    return this.#messages.slice(this.#head);
  }

  /**
   * Appends a progress message; past the bound the oldest are dropped (seq keeps counting).
   * Constant time however many come: a function reporting in a tight loop costs each report
   * one push, and the dropped ones are let go in one step now and then.
   */
  append(update: ProgressUpdate): void {
    if (this.status !== 'running') return;
    const message: ProgressMessage = { seq: this.#nextSeq++, text: update.text, ts: update.ts };
    if (update.fraction !== null) message.fraction = update.fraction;
    this.#messages.push(message);
    if (this.#messages.length - this.#head > this.#maxMessages) this.#head++;
    if (this.#head > this.#maxMessages) {
      this.#messages = this.#messages.slice(this.#head);
      this.#head = 0;
    }
  }

  /** Messages with seq above `since` (a client passes the highest seq it has seen). */
  messagesSince(since: number): ProgressMessage[] {
    // Kept messages have consecutive seqs: where `since` falls is arithmetic, not a search.
    const first = this.#messages[this.#head];
    if (!first) return [];
    const at = Math.max(0, Math.floor(since) + 1 - first.seq);
    return this.#messages.slice(this.#head + at);
  }

  succeed(result: StoredResult): boolean {
    return this.#end('done', () => (this.result = result));
  }

  fail(error: string): boolean {
    return this.#end('error', () => (this.error = error));
  }

  /** Ends the job once: false when it had already ended. */
  #end(status: 'done' | 'error', keep: () => void): boolean {
    if (this.status !== 'running') return false;
    this.status = status;
    keep();
    this.finishedAt = Date.now();
    return true;
  }
}

export function toStartResponse(job: Job): StartResponse {
  return { job_id: job.id, status: job.status };
}

export function toProgressResponse(job: Job, since: number): ProgressResponse {
  return { status: job.status, messages: job.messagesSince(since), error: job.error };
}

/** The finished job's result, or the catalogued error for its state. */
export function resultOf(job: Job | undefined, id: string): StoredResult {
  if (!job) throw createHostError('SPC_ERR_JOB_NOT_FOUND', id);
  if (job.status === 'running') throw createHostError('SPC_ERR_JOB_RUNNING', id);
  if (job.resultEvicted) throw createHostError('SPC_ERR_JOB_RESULT_EVICTED', id);
  if (job.status === 'error' || !job.result) throw createHostError('SPC_ERR_JOB_FAILED', id, job.error ?? 'unknown error');
  return job.result;
}
