/**
 * @module conversation
 * A room's one conversation with its agent: turns run strictly one after another, in the order
 * they came (a turn that arrives while one runs waits, and its sender hears its place), each
 * bounded by the turn timeout. An interrupt stops the running turn only; ending the conversation
 * stops it and drops the turns waiting, and the next turn starts afresh. The model is given the
 * conversation so far: what was said, and within the turns this host ran, the tools called. What
 * is kept is bounded as what is sent is (context-bound.ts): after each turn the turns that no
 * longer fit are let go, and the model is told some were.
 */
import type { TranscriptEntry } from '../wire/agent-types.ts';
import type { TurnOutcome } from './agent-figures.ts';
import type { ModelMessage } from './model/agent-model.ts';
import { ModelRefusal } from './model/agent-model.ts';
import { runTurn, type Turn, type TurnDeps } from './turn-runner.ts';
import { firstFitting } from './context-bound.ts';

/** Pictures kept in the conversation the model is given; older ones are replaced by a word. */
const KEPT_IMAGES = 4;

/** Why a running turn was stopped. */
type StopReason = 'interrupt' | 'end' | 'timeout';

export interface ConversationDeps extends Omit<TurnDeps, 'leftOut'> {
  timeoutMs: number;
  /** A turn ended: how, what the agent said of its answer, and (failed) why, in words for the `error` frame. */
  ended(outcome: TurnOutcome, text: string, problem: string | null): void;
  /** A turn's unexpected fault (logged). */
  fault(error: unknown): void;
}

/** The model's view of a conversation read back from the log: what was said, in order. */
function messagesOf(entries: readonly TranscriptEntry[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const entry of entries) {
    if (entry.role === 'user') messages.push({ role: 'user', parts: [{ type: 'text', text: entry.text }] });
    else if (messages.length > 0) messages.push({ role: 'assistant', text: entry.text, calls: [] });
  }
  return messages;
}

/** Replaces the picture data of all but the newest few, so a long conversation holds bounded bytes. */
function forgetOldImages(messages: ModelMessage[]): void {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    const lists = message.role === 'user' ? [message.parts] : message.role === 'tool' ? message.results.map((r) => r.parts) : [];
    for (const parts of lists) {
      for (let j = 0; j < parts.length; j++) {
        if (parts[j]!.type !== 'image') continue;
        if (++seen > KEPT_IMAGES) parts[j] = { type: 'text', text: '(a picture shown earlier)' };
      }
    }
  }
}

export class Conversation {
  #deps: ConversationDeps;
  #messages: ModelMessage[];
  #queue: Turn[] = [];
  #running: AbortController | null = null;
  /** Whether turns were let go for the bound (the model is told so). */
  #leftOut = false;
  #turnDeps: TurnDeps;

  constructor(deps: ConversationDeps, history: readonly TranscriptEntry[]) {
    this.#deps = deps;
    this.#turnDeps = { ...deps, leftOut: () => this.#leftOut };
    this.#messages = messagesOf(history);
    this.#keepWithinBound();
  }

  /** Whether a turn runs or waits. */
  get busy(): boolean {
    return this.#running !== null || this.#queue.length > 0;
  }

  /** How many turns wait (not counting the one running). */
  get waiting(): number {
    return this.#queue.length;
  }

  /** Queues `turn`; answers its place (0: it runs now). */
  submit(turn: Turn): number {
    const position = this.#queue.length + (this.#running ? 1 : 0);
    this.#queue.push(turn);
    if (!this.#running) void this.#next();
    return position;
  }

  /** Stops the running turn; false when none runs. */
  interrupt(): boolean {
    return this.#stop('interrupt');
  }

  /** Ends the conversation: the running turn stops, the waiting ones are dropped, the model forgets. */
  end(): void {
    this.#queue = [];
    this.#stop('end');
    this.#messages = [];
    this.#leftOut = false;
  }

  #stop(reason: StopReason): boolean {
    if (!this.#running || this.#running.signal.aborted) return false;
    this.#running.abort(reason);
    return true;
  }

  async #next(): Promise<void> {
    const turn = this.#queue.shift();
    if (!turn) return;
    const running = new AbortController();
    this.#running = running;
    const timer = setTimeout(() => this.#stop('timeout'), this.#deps.timeoutMs).unref();
    const said = { text: '' };
    try {
      await runTurn(this.#turnDeps, this.#messages, turn, running.signal, said);
      this.#deps.ended('done', said.text, null);
    } catch (error) {
      this.#failed(running.signal, error, said.text);
    } finally {
      clearTimeout(timer);
      forgetOldImages(this.#messages);
      this.#keepWithinBound();
      this.#running = null;
    }
    if (this.#queue.length > 0) void this.#next();
  }

  /** Lets go the oldest turns that no request could carry any more. */
  #keepWithinBound(): void {
    const first = firstFitting(this.#messages, this.#messages.length, this.#deps.contextBytes);
    if (first === 0) return;
    this.#messages.splice(0, first);
    this.#leftOut = true;
  }

  #failed(signal: AbortSignal, error: unknown, text: string): void {
    const reason = signal.aborted ? (signal.reason as StopReason) : null;
    if (reason === 'interrupt' || reason === 'end') return this.#deps.ended('interrupted', text, null);
    if (reason === 'timeout') {
      const seconds = Math.round(this.#deps.timeoutMs / 1000);
      return this.#deps.ended('failed', text, `the turn ran past ${seconds} s (--agent-turn-timeout) and was stopped`);
    }
    if (error instanceof ModelRefusal) return this.#deps.ended('failed', text, error.message);
    this.#deps.fault(error);
    this.#deps.ended('failed', text, 'the agent failed: internal error');
  }
}
