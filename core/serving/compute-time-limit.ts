/**
 * @module compute-time-limit
 * How long a request waits for its computation (`--compute-timeout`): `/data`, `/invoke`, a
 * room's entry and the agents' `compute` each wait at most that long, then answer 504 saying
 * so. The limit is the request's, not the computation's: giving up leaves the computation like
 * a client that went away does (it stops unless another request still waits for it), and a job
 * waiting for the same computation keeps its own, longer limit. A cache hit never reads the
 * signal, so it costs no timer.
 */
import { createHostError } from '../errors.ts';

export class ComputeTimeLimit {
  readonly #seconds: number;
  readonly #startedAt = performance.now();
  #controller: AbortController | null = null;
  #timer: NodeJS.Timeout | undefined;
  #cleared = false;

  constructor(seconds: number) {
    this.#seconds = seconds;
  }

  /** Aborts once the limit has passed since the request began; made when first read. */
  get signal(): AbortSignal {
    if (this.#controller) return this.#controller.signal;
    const controller = (this.#controller = new AbortController());
    if (this.#cleared) return controller.signal;
    const left = Math.max(0, this.#seconds * 1000 - (performance.now() - this.#startedAt));
    this.#timer = setTimeout(() => controller.abort(new Error('compute time limit')), left);
    this.#timer.unref();
    return controller.signal;
  }

  /** `given` (the client's own signal, when it has one) joined with the limit. */
  joined(given: AbortSignal | undefined): AbortSignal {
    return given ? AbortSignal.any([given, this.signal]) : this.signal;
  }

  /** The request has its result (or failed): the limit no longer runs. */
  clear(): void {
    this.#cleared = true;
    clearTimeout(this.#timer);
  }

  /** `error` as the request should see it: the 504 when the limit is what ended the wait. */
  explain(error: unknown, functionName: string): unknown {
    return this.#controller?.signal.aborted ? createHostError('SPC_ERR_COMPUTE_TIMEOUT', functionName, String(this.#seconds)) : error;
  }

  /**
   * Runs `wait` under the limit: its failure explained, the timer cleared either way. One
   * `then` rather than an async function around an await: every hit goes through here.
   */
  run<T>(functionName: string, wait: () => Promise<T>): Promise<T> {
    let waiting: Promise<T>;
    try {
      waiting = wait();
    } catch (error) {
      this.clear();
      return Promise.reject(this.explain(error, functionName));
    }
    return waiting.then(
      (value) => {
        this.clear();
        return value;
      },
      (error: unknown) => {
        this.clear();
        throw this.explain(error, functionName);
      },
    );
  }
}
