/**
 * @module room-follower
 * The "follow room" switch. While it is on, the viewer reads its room's event stream
 * (`client.followRoom`, which reconnects by itself) and shows what another peer's request put
 * in the room: a `result`, or the room's `state` when following begins; a `computing` that is
 * not the viewer's own says "A peer is computing…", followed by that job's progress as its own
 * event stream reports it (peer-job.ts). No polling: the streams are the only source.
 *
 * Feedback loops are avoided two ways: an event for what the viewer shows does nothing, and
 * neither does an event for a request this viewer sent (its own, or the one that shows a
 * peer's entry, usually a cache hit that publishes nothing). A request is remembered until its
 * `result` comes back, the host says it was a cache hit, or a short while after it settled: a
 * request the viewer abandoned (a newer one replaced it) may still finish on the host, and its
 * late `result` must not pull the viewer back to it.
 *
 * A room with a scene sends `scene` events, and `computing`, `result` and `failed` naming a
 * layer: those of layers other than the active one go to the scene (room-scene.ts), never to
 * the entry.
 */
import { isAbortError } from '../../core/client/errors.ts';
import type { RoomFailed, RoomScene } from '../../core/wire/scene-types.ts';
import type { RoomComputing, RoomEntry, RoomEvent, RoomView } from '../../core/wire/room-types.ts';
import type { LabelsEvent } from '../../core/wire/edit-types.ts';
import type { ConversationEntry } from '../../core/wire/agent-types.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import { h } from '../dom.ts';
import { PeerJob, type FollowJob, type PeerProgress } from './peer-job.ts';

/** What a room entry names: the function, the specimen when known, the values. */
export type RoomSubject = Pick<RoomEntry, 'function_name' | 'specimen_id' | 'params'>;

export interface RoomFollowerOptions {
  /** The room's events until `signal` aborts (the client's `followRoom`). */
  follow(room: string, signal: AbortSignal): AsyncIterable<RoomEvent>;
  /** What the viewer shows (or is asking for) now; null when it shows no function's result. */
  shown(): RoomSubject | null;
  /** Shows `entry`: selects its specimen (or function) with its values and loads the data. */
  adopt(entry: RoomEntry): void;
  /** The user flipped the switch. */
  onToggle(on: boolean): void;
  /** A job's events (the client's `followJob`): a peer's job progress is shown from them. */
  followJob?: FollowJob;
  /** How the room looks (a `view` event), to apply while following. */
  view?(view: RoomView | null): void;
  /** The room's scene (a `scene` event). */
  scene?(scene: RoomScene): void;
  /**
   * The room's first state and scene came (they open every stream): `showsSomething` when its
   * entry is to be shown here or its scene has layers, false when the room has nothing to draw.
   */
  opened?(showsSomething: boolean): void;
  /** An event of a layer that is not the entry: true when the scene took it. */
  layerEvent?(event: RoomEvent): boolean;
  /** Following stopped or moved to another room: what the old room showed goes. */
  left?(): void;
  /** Each `state` and `annotation` event, for the room's marks (besides what the follower does with a `state`). */
  marks?(event: RoomEvent): void;
  /** Each `state` (the stream (re)started: read who is here) and `presence` event. */
  presence?(event: RoomEvent): void;
  /** Each `replay` event: a replay playing into the room changed pace. */
  replay?(event: RoomEvent): void;
  /** Each `labels` event: an edit of one of the room's segmentations. */
  labels?(edit: LabelsEvent): void;
  /** Each `conversation` event: an entry of the room's conversation with its agent. */
  conversation?(entry: ConversationEntry): void;
}

/** The stream's state, on the element's `data-stream` (for styles and tests). */
type StreamState = 'off' | 'connecting' | 'open' | 'lost';

/** How long a settled request of ours is still recognised: its `result` may trail its reply. */
const SETTLED_GRACE_MS = 1500;

export class RoomFollower {
  readonly element: HTMLElement;
  readonly #options: RoomFollowerOptions;
  readonly #box = h('input', { id: 'follow-room', type: 'checkbox', class: 'switch', role: 'switch', 'data-testid': 'follow-room' });
  readonly #status = h('span', { class: 'follow-status', 'data-testid': 'follow-status', 'aria-live': 'polite' });
  /** The followed peer job's progress, beside the status. */
  readonly #peerProgress = h('span', { class: 'peer-progress', 'data-testid': 'peer-progress', 'aria-live': 'polite' });
  #room = '';
  #controller: AbortController | null = null;
  /** Requests this viewer sent whose `result` has not come back: key → until when (ms) it counts. */
  #mine = new Map<string, number>();
  readonly #peerJob: PeerJob | null;

  constructor(options: RoomFollowerOptions) {
    this.#options = options;
    this.#box.addEventListener('change', () => {
      this.#restart(true);
      options.onToggle(this.#box.checked);
    });
    this.element = h(
      'div',
      { class: 'follow', title: 'Show what other peers ask for in this room, as they ask' },
      this.#box,
      h('label', { for: 'follow-room', class: 'switch-label' }, 'Follow room'),
      this.#status,
      this.#peerProgress,
    );
    this.#setStream('off');
    this.#peerJob = options.followJob ? new PeerJob(options.followJob, (jobId, progress) => this.#showPeerProgress(jobId, progress)) : null;
  }

  /** The switch is on. */
  get enabled(): boolean {
    return this.#box.checked;
  }

  /** What the status line says ("A peer is computing…"), '' when nothing. */
  get status(): string {
    return this.#status.textContent ?? '';
  }

  /** Flips the switch as a click would (the VR panel's "Follow room"). */
  toggle(on: boolean): void {
    if (on === this.#box.checked) return;
    this.#box.checked = on;
    this.#box.dispatchEvent(new Event('change'));
  }

  /**
   * Sets the switch (from the URL) and follows `room` once `ready` settles (the catalog, so a
   * specimen the room names can be selected). `adoptState`: the room's first `state` may
   * replace what the viewer shows (false when the URL named a subject: the link wins).
   */
  start(room: string, on: boolean, adoptState: boolean, ready: Promise<unknown>): void {
    this.#room = room;
    this.#box.checked = on;
    this.#setStream(on ? 'connecting' : 'off');
    void ready.finally(() => {
      if (this.#controller === null) this.#restart(adoptState);
    });
  }

  /** The viewer moved to `room`: the old room's stream closes and, when on, the new room's opens. */
  setRoom(room: string, adoptState: boolean): void {
    if (room === this.#room) return;
    this.#room = room;
    this.#restart(adoptState);
  }

  /** The viewer sent a request for `functionName` with `params`. */
  sent(functionName: string, params: Record<string, unknown>): void {
    if (!this.#controller) return;
    const key = keyOf({ function_name: functionName, params });
    this.#mine.delete(key);
    this.#mine.set(key, Infinity);
  }

  /** That request ended; `hit`: the room cache served it, so no `result` will come for it. */
  settled(functionName: string, params: Record<string, unknown>, hit: boolean): void {
    const key = keyOf({ function_name: functionName, params });
    if (!this.#mine.has(key)) return;
    if (hit) this.#mine.delete(key);
    else this.#mine.set(key, performance.now() + SETTLED_GRACE_MS);
  }

  #restart(adoptState: boolean): void {
    this.#controller?.abort();
    this.#controller = null;
    this.#mine.clear();
    this.#clearPeer();
    this.#status.textContent = '';
    this.#status.title = '';
    this.#options.left?.();
    if (!this.enabled) {
      this.#setStream('off');
      return;
    }
    const controller = new AbortController();
    this.#controller = controller;
    void this.#run(this.#room, controller.signal, adoptState);
  }

  async #run(room: string, signal: AbortSignal, adoptState: boolean): Promise<void> {
    this.#setStream('connecting');
    let first = true;
    let entry = false;
    let opened = false;
    try {
      for await (const event of this.#options.follow(room, signal)) {
        if (signal.aborted) return;
        if (event.event === 'scene' && !opened) {
          opened = true;
          this.#options.opened?.(entry || event.data.layers.length > 0);
        }
        if (event.event === 'state' || event.event === 'annotation') this.#options.marks?.(event);
        if (event.event === 'state' || event.event === 'presence') this.#options.presence?.(event);
        if (event.event === 'replay') this.#options.replay?.(event);
        if (event.event === 'conversation') this.#options.conversation?.(event.data);
        if (event.event === 'labels') this.#options.labels?.(event.data);
        if (event.event === 'scene') this.#options.scene?.(event.data);
        else if (this.#options.layerEvent?.(event)) continue;
        else if (event.event === 'view') this.#options.view?.(event.data);
        else if (event.event === 'failed') this.#onFailed(event.data);
        else if (event.event === 'computing') this.#onComputing(event.data);
        else if (event.event === 'result') this.#onEntry(event.data, true);
        else if (event.event === 'state') {
          this.#setStream('open');
          // A reconnection's state catches up on what was missed; the first one only when asked.
          if (event.data && (adoptState || !first)) this.#onEntry(event.data, false);
          entry ||= event.data !== null && adoptState;
          first = false;
        }
      }
    } catch (error) {
      if (signal.aborted || isAbortError(error)) return;
      this.#setStream('lost');
      this.#status.textContent = 'Room stream lost';
      this.#status.title = `${error instanceof Error ? error.message : String(error)}. Switch Follow room off and on to retry.`;
    }
  }

  /** The room's entry is `entry` (`echo`: a `result`, which answers our request when it is ours). */
  #onEntry(entry: RoomEntry, echo: boolean): void {
    this.#clearPeer();
    this.#status.textContent = '';
    const key = keyOf(entry);
    if (this.#isMine(key)) {
      if (echo) this.#mine.delete(key);
      return;
    }
    if (!this.#isShown(entry)) this.#options.adopt(entry);
  }

  #onComputing(data: RoomComputing): void {
    if (this.#isMine(keyOf(data)) || this.#isShown(data)) return;
    this.#status.textContent = 'A peer is computing…';
    this.#clearPeer();
    if (data.job_id && this.#peerJob) {
      this.#peerProgress.dataset.job = data.job_id;
      this.#peerJob.follow(data.job_id);
    }
  }

  /** A peer's computation of the entry failed: said, so nobody waits on it. */
  #onFailed(data: RoomFailed): void {
    this.#clearPeer();
    if (this.#isMine(keyOf({ function_name: data.function_name, params: data.params ?? {} }))) return;
    // A peer that moved on (a slider step replaced at once) or cancelled: nothing failed, and
    // its next request says what comes instead.
    if (data.code === 'SPC_ERR_JOB_CANCELLED') {
      this.#status.textContent = '';
      this.#status.title = '';
      return;
    }
    // The error itself, not only a tooltip: every follower reads why the wait ended.
    this.#status.textContent = `A peer's computation failed: ${data.detail}`;
    this.#status.title = data.detail;
  }

  /** The peer job's latest progress: a percentage when stated, and its text. */
  #showPeerProgress(jobId: string, progress: PeerProgress): void {
    if (this.#peerProgress.dataset.job !== jobId) return;
    const percent = progress.fraction === null ? '' : `${Math.round(progress.fraction * 100)}%`;
    this.#peerProgress.textContent = [percent, progress.text].filter(Boolean).join(' · ');
    this.#peerProgress.title = progress.text;
    if (progress.fraction !== null) this.#peerProgress.style.setProperty('--fraction', String(progress.fraction));
  }

  #clearPeer(): void {
    this.#peerJob?.stop();
    this.#peerProgress.textContent = '';
    this.#peerProgress.title = '';
    this.#peerProgress.style.removeProperty('--fraction');
    delete this.#peerProgress.dataset.job;
  }

  #isMine(key: string): boolean {
    const until = this.#mine.get(key);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.#mine.delete(key);
    return false;
  }

  #isShown(entry: RoomSubject): boolean {
    const shown = this.#options.shown();
    if (!shown || stableJson(entry.params) !== stableJson(shown.params)) return false;
    return entry.specimen_id !== null ? entry.specimen_id === shown.specimen_id : entry.function_name === shown.function_name;
  }

  #setStream(state: StreamState): void {
    this.element.dataset.stream = state;
  }
}

/** A request's identity in the room: the function and its values (key order ignored). */
function keyOf(subject: Pick<RoomSubject, 'function_name' | 'params'>): string {
  return `${subject.function_name}\u0000${stableJson(subject.params)}`;
}
