/**
 * @module view-sync
 * ViewSync: how a followed room looks (window, colour map, opacity, mode, camera), kept in step
 * between this page and the room. A `view` event from the room is applied here; a change the
 * user makes here is shared with the room after a short quiet spell (dragging a slider sends
 * one request, not one per pixel).
 *
 * No echo loops: each setting remembers the value this page last showed (applied from the room
 * or made by its user), and an event carrying that same value does nothing. A value this page
 * sent comes back to it as an event too; until it has (or a while after the request settled),
 * older values of that setting in events are not applied, so the page never jumps back to what
 * it showed before its own change. A change still waiting to be sent wins over the room's.
 */
import type { RoomView } from '../../client/wire-types.ts';
import { stableJson } from '../../params/stable-json.ts';

/** The settings a room shares, in the order they are applied. */
export const VIEW_FIELDS = ['window', 'colormap', 'opacity', 'mode', 'camera'] as const;
type Field = (typeof VIEW_FIELDS)[number];

/** How long after its request settled a sent value's echo is still waited for. */
const ECHO_GRACE_MS = 3000;

export interface ViewSyncOptions {
  /** Shares `view` (only the changed settings) with the room. */
  send(view: RoomView): Promise<void>;
  /** Shows the settings of `view` on the page (not to be reported back as the user's change). */
  apply(view: RoomView): void;
  /** The quiet spell before a change is sent. @defaultValue 200 ms */
  debounceMs?: number;
}

/** A sent value: its text, and until when its echo counts (Infinity while the request runs). */
interface Sent {
  text: string;
  until: number;
}

export class ViewSync {
  readonly #options: ViewSyncOptions;
  /** Each setting's value as this page shows it, as text (comparisons ignore key order). */
  #shown = new Map<Field, string>();
  #current: RoomView = {};
  #pending: RoomView = {};
  #sent = new Map<Field, Sent[]>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by reset(), so a request from before it does not touch the new state. */
  #epoch = 0;

  constructor(options: ViewSyncOptions) {
    this.#options = options;
  }

  /** The room's view as this page knows it (to apply to newly shown content). */
  get current(): RoomView {
    return { ...this.#current };
  }

  /** The user changed settings here: remembered, and shared once the changes pause. */
  local(change: RoomView): void {
    let changed = false;
    for (const field of VIEW_FIELDS) {
      const value = change[field];
      if (value === undefined) continue;
      const text = stableJson(value);
      if (this.#shown.get(field) === text) continue;
      this.#shown.set(field, text);
      setField(this.#current, field, value);
      setField(this.#pending, field, value);
      changed = true;
    }
    if (!changed) return;
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.flush(), this.#options.debounceMs ?? 200);
  }

  /** Sends the waiting changes now. */
  flush(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const view = this.#pending;
    this.#pending = {};
    const fields = VIEW_FIELDS.filter((field) => view[field] !== undefined);
    if (fields.length === 0) return;
    const entries = fields.map((field) => {
      const sent: Sent = { text: stableJson(view[field]), until: Infinity };
      this.#sent.set(field, [...(this.#sent.get(field) ?? []), sent]);
      return sent;
    });
    const epoch = this.#epoch;
    const settle = (): void => {
      if (epoch !== this.#epoch) return;
      for (const sent of entries) sent.until = performance.now() + ECHO_GRACE_MS;
    };
    // A refused share leaves the page as the user set it; the room's next event still applies.
    this.#options.send(view).then(settle, settle);
  }

  /** A `view` event (or the view read on connect): applies what differs from what is shown. */
  remote(view: RoomView | null): void {
    if (!view) return;
    const apply: RoomView = {};
    let any = false;
    for (const field of VIEW_FIELDS) {
      const value = view[field];
      if (value === undefined || value === null) continue;
      const text = stableJson(value);
      if (this.#isEchoOrStale(field, text)) continue;
      if (this.#pending[field] !== undefined) continue;
      if (this.#shown.get(field) === text) continue;
      this.#shown.set(field, text);
      setField(this.#current, field, value);
      setField(apply, field, value);
      any = true;
    }
    if (any) this.#options.apply(apply);
  }

  /** Forgets everything (another room, or following stopped); nothing waiting is sent. */
  reset(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#epoch++;
    this.#shown.clear();
    this.#sent.clear();
    this.#current = {};
    this.#pending = {};
  }

  /**
   * True when `text` is one of this page's own sent values coming back (it and every older
   * one are then done), or when an own value is still on its way back (the event predates it).
   */
  #isEchoOrStale(field: Field, text: string): boolean {
    const now = performance.now();
    const sent = (this.#sent.get(field) ?? []).filter((s) => s.until > now);
    const mine = sent.findIndex((s) => s.text === text);
    if (mine >= 0) {
      sent.splice(0, mine + 1);
      this.#store(field, sent);
      return true;
    }
    this.#store(field, sent);
    return sent.length > 0;
  }

  #store(field: Field, sent: Sent[]): void {
    if (sent.length > 0) this.#sent.set(field, sent);
    else this.#sent.delete(field);
  }
}

function setField<F extends Field>(view: RoomView, field: F, value: RoomView[F]): void {
  view[field] = value;
}
