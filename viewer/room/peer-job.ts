/**
 * @module peer-job
 * A peer's computation, followed from the room: when the room says a peer's job started, its
 * event stream (`client.followJob`) gives the progress messages, shown next to "A peer is
 * computing…" as the latest text and a percentage when the message states one. Only the
 * newest job is followed; a new one, or stop(), closes the previous stream.
 */
import { isAbortError } from '../../core/client/errors.ts';
import type { JobEvent, ProgressMessage } from '../../core/wire/wire-types.ts';
import { fractionOf } from '../panels/job-view.ts';

/** The job's events until `signal` aborts (the client's `followJob`). */
export type FollowJob = (jobId: string, signal: AbortSignal) => AsyncIterable<JobEvent>;

/** What to show of the peer's job as it goes; `ended` once its stream is over. */
export interface PeerProgress {
  text: string;
  /** 0..1 when the latest message states it. */
  fraction: number | null;
  ended: boolean;
}

export class PeerJob {
  readonly #follow: FollowJob;
  readonly #onProgress: (jobId: string, progress: PeerProgress) => void;
  #controller: AbortController | null = null;

  constructor(follow: FollowJob, onProgress: (jobId: string, progress: PeerProgress) => void) {
    this.#follow = follow;
    this.#onProgress = onProgress;
  }

  /** Follows `jobId` (and stops following any earlier job). */
  follow(jobId: string): void {
    this.stop();
    const controller = new AbortController();
    this.#controller = controller;
    void this.#run(jobId, controller.signal);
  }

  /** Stops following. */
  stop(): void {
    this.#controller?.abort();
    this.#controller = null;
  }

  async #run(jobId: string, signal: AbortSignal): Promise<void> {
    let last: ProgressMessage | null = null;
    try {
      for await (const event of this.#follow(jobId, signal)) {
        if (signal.aborted) return;
        if (event.event === 'progress') {
          last = event.data;
          this.#onProgress(jobId, { text: last.text, fraction: fractionOf(last), ended: false });
        } else {
          this.#onProgress(jobId, { text: last?.text ?? '', fraction: event.event === 'done' ? 1 : null, ended: true });
          return;
        }
      }
    } catch (error) {
      // A job swept or unknown by now, or a lost stream: the room's next event says what happened.
      if (signal.aborted || isAbortError(error)) return;
    }
  }
}
