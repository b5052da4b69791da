/**
 * @module replay-timeline
 * The timeline of a replay playing into the followed room: play/pause, a slider to seek in the
 * other room's time, the speed, and where it is. Shown while a replay plays or is paused (from
 * the room's `replay` events, which carry its status); between events its position advances
 * on the page's own clock at the replay's speed, so nothing is polled. Each control steers the
 * replay on the host, whose next `replay` event the timeline then shows.
 */
import type { ReplayStatus } from '../../core/wire/room-types.ts';
import { h } from '../dom.ts';

export interface ReplaySteer {
  (steer: { pause?: boolean; seek?: number; speed?: number }): void;
}

const SPEEDS = [0.5, 1, 2, 4];

function clock(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export class ReplayTimeline {
  readonly element: HTMLElement;
  readonly #play = h('button', { type: 'button', class: 'replay-play', 'data-testid': 'replay-play' }, 'Pause');
  readonly #slider = h('input', { type: 'range', class: 'replay-seek', 'data-testid': 'replay-seek', min: '0', max: '0', step: '1' });
  readonly #speed = h(
    'select',
    { class: 'replay-speed', 'data-testid': 'replay-speed' },
    ...SPEEDS.map((s) => h('option', { value: String(s) }, `${s}×`)),
  );
  readonly #time = h('span', { class: 'replay-time', 'data-testid': 'replay-time' });
  #status: ReplayStatus | null = null;
  #at = 0;
  #timer: number | null = null;

  constructor(steer: ReplaySteer) {
    this.element = h(
      'div',
      { class: 'replay-timeline', 'data-testid': 'replay-timeline', hidden: true },
      this.#play,
      this.#slider,
      this.#time,
      this.#speed,
    );
    this.#play.addEventListener('click', () => steer({ pause: this.#status?.state === 'playing' }));
    this.#slider.addEventListener('change', () => steer({ seek: Number(this.#slider.value) }));
    this.#speed.addEventListener('change', () => steer({ speed: Number(this.#speed.value) }));
  }

  /** A `replay` event: the replay's status now. */
  show(status: ReplayStatus): void {
    this.#status = status;
    this.#at = performance.now();
    this.element.hidden = status.state === 'ended';
    this.element.dataset.state = status.state;
    this.#play.textContent = status.state === 'playing' ? 'Pause' : 'Play';
    this.#slider.min = String(status.start_ts);
    this.#slider.max = String(status.end_ts);
    this.#speed.value = String(status.speed);
    this.#draw();
    if (status.state === 'playing' && this.#timer === null) this.#timer = window.setInterval(() => this.#draw(), 250);
    if (status.state !== 'playing' && this.#timer !== null) {
      window.clearInterval(this.#timer);
      this.#timer = null;
    }
  }

  /** Following stopped or moved: the timeline goes. */
  clear(): void {
    if (this.#timer !== null) window.clearInterval(this.#timer);
    this.#timer = null;
    this.#status = null;
    this.element.hidden = true;
  }

  /** Where the replay is now, on the page's clock since the last event. */
  get position(): number {
    const status = this.#status;
    if (!status) return 0;
    const moved = status.state === 'playing' ? (performance.now() - this.#at) * status.speed : 0;
    return Math.min(status.end_ts, status.position + moved);
  }

  #draw(): void {
    const status = this.#status;
    if (!status) return;
    const position = this.position;
    if (document.activeElement !== this.#slider) this.#slider.value = String(position);
    this.#time.textContent = `${status.from}: ${clock(position - status.start_ts)} / ${clock(status.end_ts - status.start_ts)}`;
  }
}
