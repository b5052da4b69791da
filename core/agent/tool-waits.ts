/**
 * @module tool-waits
 * The headset tool calls of one room that wait for their answer. Each call names its executor
 * (the client id of the room's oldest socket when it was made) and only that socket's
 * `tool_result` counts; another socket answering it is told so. A call waits at most 30 s; when
 * its executor leaves, its calls fail at once (well within the second the rule allows), so the
 * agent hears of it instead of waiting out the timeout. `capture_viewport` is answered twice: its
 * `tool_result` only acknowledges, and the call resolves with the executor's next screenshot
 * frame; captures of one room are served in the order they were made.
 */
import { randomUUID } from 'node:crypto';
import { createHostError } from '../errors.ts';

/** Longest a headset tool call waits for its executor. */
export const TOOL_CALL_TIMEOUT_MS = 30_000;

interface Waiting {
  name: string;
  executor: number;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class ToolWaits {
  #waiting = new Map<string, Waiting>();
  /** Capture calls waiting for a screenshot, oldest first. */
  #captures: string[] = [];
  #timeoutMs: number;

  constructor(timeoutMs = TOOL_CALL_TIMEOUT_MS) {
    this.#timeoutMs = timeoutMs;
  }

  /** How many calls wait now. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Starts waiting for `executor`'s answer to a call of tool `name`: the call's id (the `tool_call` frame's `request_id`) and its answer. */
  start(name: string, executor: number): { requestId: string; answer: Promise<unknown> } {
    const requestId = randomUUID().replaceAll('-', '');
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => this.#fail(requestId, createHostError('SPC_ERR_HEADSET_TIMEOUT', name, String(this.#timeoutMs / 1000))), this.#timeoutMs);
      timer.unref();
      this.#waiting.set(requestId, { name, executor, resolve, reject, timer });
    });
    if (name === 'capture_viewport') this.#captures.push(requestId);
    return { requestId, answer };
  }

  /** A socket's `tool_result`: null when taken (or acknowledged), else why it does not count. */
  result(clientId: number, requestId: string, result: unknown): string | null {
    const waiting = this.#waiting.get(requestId);
    if (!waiting) return `no tool call waits for request_id '${requestId.slice(0, 64)}'`;
    if (waiting.executor !== clientId) return `request_id '${requestId}' was sent to client ${waiting.executor}: only its tool_result counts`;
    // The screenshot frame that follows answers a capture; its tool_result only says it is coming
    // (or, carrying an error, that none will).
    if (waiting.name === 'capture_viewport') {
      const why = (result as { error?: unknown } | null)?.error;
      if (why !== undefined) this.#fail(requestId, createHostError('SPC_ERR_HEADSET_REFUSED', waiting.name, String(why)));
      return null;
    }
    this.#settle(requestId)?.resolve(result);
    return null;
  }

  /**
   * A socket's screenshot: answers the oldest capture waiting for that socket; false when none
   * does. The picture is handed on as it came, not copied: nothing writes into a frame's bytes.
   */
  screenshot(clientId: number, jpeg: Buffer): boolean {
    const requestId = this.#captures.find((id) => this.#waiting.get(id)?.executor === clientId);
    if (requestId === undefined) return false;
    this.#settle(requestId)?.resolve(jpeg);
    return true;
  }

  /** The executor `clientId` left: every call it owed fails now. */
  left(clientId: number): void {
    for (const [requestId, waiting] of [...this.#waiting]) {
      if (waiting.executor === clientId) this.#fail(requestId, createHostError('SPC_ERR_HEADSET_GONE', waiting.name, String(clientId)));
    }
  }

  /** Every call fails with `error` (the room is going away). */
  failAll(error: Error): void {
    for (const requestId of [...this.#waiting.keys()]) this.#fail(requestId, error);
  }

  #fail(requestId: string, error: Error): void {
    this.#settle(requestId)?.reject(error);
  }

  #settle(requestId: string): Waiting | undefined {
    const waiting = this.#waiting.get(requestId);
    if (!waiting) return undefined;
    this.#waiting.delete(requestId);
    clearTimeout(waiting.timer);
    const at = this.#captures.indexOf(requestId);
    if (at >= 0) this.#captures.splice(at, 1);
    return waiting;
  }
}
