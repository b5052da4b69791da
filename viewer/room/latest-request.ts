/**
 * @module latest-request
 * "The latest request wins": each scheduled request gets a sequence number and its own
 * AbortController; scheduling a new one aborts the previous one, and a request's outcome is
 * delivered only while it is still the newest, so a slow stale answer never replaces a newer
 * one. Requests made while dragging are debounced.
 */

/** What a scheduled request receives. */
export interface RequestContext {
  signal: AbortSignal;
  seq: number;
  /** True while no newer request has been scheduled (check it before touching the page). */
  isCurrent(): boolean;
}

/**
 * A signal that aborts when either does: a request's own, and one that cancels a part of it
 * early (a full fetch coarse-first no longer needs). Without the second, the first itself.
 */
export function eitherSignal(request: AbortSignal, part?: AbortSignal): AbortSignal {
  return part ? AbortSignal.any([request, part]) : request;
}

export class LatestRequest {
  #seq = 0;
  #controller: AbortController | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;

  /**
   * Schedules `run`, after `delayMs` when given (a newer schedule within the delay replaces it).
   * The previous request is aborted as soon as this one is scheduled.
   */
  schedule(run: (context: RequestContext) => Promise<void>, delayMs = 0): void {
    const seq = ++this.#seq;
    this.#controller?.abort();
    this.#controller = null;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const start = (): void => {
      this.#timer = null;
      if (seq !== this.#seq) return;
      const controller = new AbortController();
      this.#controller = controller;
      void run({ signal: controller.signal, seq, isCurrent: () => seq === this.#seq }).finally(() => {
        if (this.#controller === controller) this.#controller = null;
      });
    };
    if (delayMs > 0) this.#timer = setTimeout(start, delayMs);
    else start();
  }

  /** Aborts the running request (its outcome still reaches it, as an AbortError). */
  abort(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#controller?.abort();
  }

  /** Forgets everything: the running request is aborted and no longer current. */
  reset(): void {
    this.#seq++;
    this.abort();
  }
}
