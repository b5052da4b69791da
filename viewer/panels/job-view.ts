/**
 * @module job-view
 * The state of the current request: a progress bar with the job's messages as they arrive,
 * a cancel button while it runs, and how it ended (done, served from the room cache,
 * cancelled, failed).
 */
import type { ProgressMessage } from '../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../dom.ts';

/** What the current request is doing. */
export type JobState = 'idle' | 'loading' | 'running' | 'done' | 'cached' | 'cancelled' | 'error';

const LABELS: Record<JobState, string> = {
  idle: 'Idle',
  loading: 'Requesting…',
  running: 'Running',
  done: 'Done',
  cached: 'Served from the room cache',
  cancelled: 'Cancelled',
  error: 'Failed',
};

const MAX_LOG = 200;

/** The completion a message states: its `fraction`, else "3 of 10" / "3/10" in its text. */
export function fractionOf(message: ProgressMessage): number | null {
  if (typeof message.fraction === 'number') return message.fraction;
  const match = /(\d+)\s*(?:of|\/)\s*(\d+)/.exec(message.text);
  return match ? Number(match[1]) / Math.max(1, Number(match[2])) : null;
}

export class JobView {
  readonly element: HTMLElement;
  readonly #state = h('span', { class: 'job-state', 'data-testid': 'job-state', 'data-state': 'idle' }, LABELS.idle);
  readonly #jobId = h('code', { class: 'job-id', 'data-testid': 'job-id' });
  readonly #fill = h('div', { class: 'bar-fill' });
  readonly #bar = h('div', { class: 'bar', role: 'progressbar', 'aria-label': 'job progress', 'data-testid': 'progress-bar' }, this.#fill);
  readonly #last = h('div', { class: 'job-last', 'data-testid': 'progress-text' });
  readonly #log = h('ol', { class: 'job-log', 'data-testid': 'progress-log', 'aria-label': 'progress messages' });
  readonly #cancel: HTMLButtonElement;
  readonly #timing = h('span', { class: 'job-timing' });
  readonly #meta = h('div', { class: 'job-meta none' }, 'job ', this.#jobId);

  constructor(onCancel: () => void) {
    this.#cancel = h(
      'button',
      { class: 'button danger', type: 'button', 'data-testid': 'cancel', disabled: true, onclick: onCancel },
      'Cancel',
    );
    this.element = h(
      'div',
      { class: 'job' },
      h('div', { class: 'job-head' }, this.#state, this.#timing, this.#cancel),
      this.#bar,
      this.#last,
      this.#meta,
      this.#log,
    );
    this.set('idle');
  }

  /** Moves to `state`; `detail` is shown under the bar (e.g. the error). */
  set(state: JobState, detail?: string): void {
    this.#state.textContent = LABELS[state];
    this.#state.dataset.state = state;
    this.element.dataset.state = state;
    const busy = state === 'loading' || state === 'running';
    this.#cancel.disabled = !busy;
    this.#bar.classList.toggle('indeterminate', busy && !this.#fill.style.width);
    if (state === 'done' || state === 'cached') this.#setFraction(1);
    if (detail !== undefined) this.#last.textContent = detail;
  }

  /** A new request begins: clears the log. */
  begin(): void {
    this.#fill.style.width = '';
    replaceChildren(this.#log);
    this.#last.textContent = '';
    this.#jobId.textContent = '';
    this.#meta.classList.add('none');
    this.#timing.textContent = '';
    this.set('loading');
  }

  setJobId(id: string): void {
    this.#jobId.textContent = id;
    this.#meta.classList.remove('none');
  }

  setTiming(ms: number): void {
    this.#timing.textContent = ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
  }

  /** One progress message, in order. */
  addMessage(message: ProgressMessage): void {
    this.#last.textContent = message.text;
    const item = h('li', { 'data-seq': message.seq }, h('span', { class: 'seq' }, String(message.seq)), message.text);
    this.#log.appendChild(item);
    while (this.#log.childElementCount > MAX_LOG) this.#log.firstElementChild?.remove();
    this.#log.scrollTop = this.#log.scrollHeight;
    const fraction = fractionOf(message);
    if (fraction !== null && Number.isFinite(fraction)) this.#setFraction(fraction);
  }

  #setFraction(fraction: number): void {
    const f = Math.max(0, Math.min(1, fraction));
    this.#fill.style.width = `${(f * 100).toFixed(1)}%`;
    this.#bar.setAttribute('aria-valuenow', String(Math.round(f * 100)));
    this.#bar.classList.remove('indeterminate');
  }
}
