/**
 * @module job
 * One background job: its status, ordered progress messages, error and result. Live state
 * (abort controller, sweep timer) stays here; job-views.ts builds the wire shapes.
 */
import type { ProgressUpdate } from '../invoke/invoker.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { isTerminal, type JobStatus } from './job-status.ts';

export interface ProgressMessage {
  seq: number;
  text: string;
  /** Seconds since the Unix epoch. */
  ts: number;
  /** Completion between 0 and 1, when the function said. */
  fraction?: number;
}

export interface JobMeta {
  specimenId: string | null;
  functionName: string;
  roomId: string;
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
  readonly messages: ProgressMessage[] = [];
  #nextSeq = 0;
  #maxMessages: number;
  sweepTimer: NodeJS.Timeout | null = null;

  constructor(id: string, meta: JobMeta, maxMessages: number) {
    this.id = id;
    this.meta = meta;
    this.#maxMessages = maxMessages;
  }

  /** Appends a progress message; past the bound the oldest are dropped (seq keeps counting). */
  append(update: ProgressUpdate): void {
    if (isTerminal(this.status)) return;
    const message: ProgressMessage = { seq: this.#nextSeq++, text: update.text, ts: update.ts };
    if (update.fraction !== null) message.fraction = update.fraction;
    this.messages.push(message);
    if (this.messages.length > this.#maxMessages) this.messages.splice(0, this.messages.length - this.#maxMessages);
  }

  /** Messages with seq above `since` (a client passes the highest seq it has seen). */
  messagesSince(since: number): ProgressMessage[] {
    const first = this.messages.findIndex((m) => m.seq > since);
    return first < 0 ? [] : this.messages.slice(first);
  }

  succeed(result: StoredResult): boolean {
    if (isTerminal(this.status)) return false;
    this.status = 'done';
    this.result = result;
    this.finishedAt = Date.now();
    return true;
  }

  fail(error: string): boolean {
    if (isTerminal(this.status)) return false;
    this.status = 'error';
    this.error = error;
    this.finishedAt = Date.now();
    return true;
  }
}
