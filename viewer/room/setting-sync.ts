/**
 * @module setting-sync
 * SettingSync: named settings kept in step between this page and a room, whatever they are (a
 * room's view: view-sync.ts; each layer's display in a scene: scene-sync.ts). A value from
 * the room is applied here; a change the user makes here is shared with the room after a short
 * quiet spell (dragging a slider sends one request, not one per pixel).
 *
 * No echo loops: each setting remembers the value this page last showed (applied from the room
 * or made by its user), and a room value equal to it does nothing. A value this page sent comes
 * back to it from the room too; until it has (or a while after the request settled), older
 * values of that setting from the room are not applied, so the page never jumps back to what it
 * showed before its own change. A change still waiting to be sent wins over the room's.
 */
import { stableJson } from '../../core/wire/stable-json.ts';

/** How long after its request settled a sent value's echo is still waited for. */
const ECHO_GRACE_MS = 3000;

export interface SettingSyncOptions {
  /** Shares the changed settings (name → value) with the room. */
  send(changes: Map<string, unknown>): Promise<void>;
  /** Shows the room's settings that differ from what the page shows (not to be reported back). */
  apply(changes: Map<string, unknown>): void;
  /** The quiet spell before a change is sent. @defaultValue 200 ms */
  debounceMs?: number;
}

/** A sent value: its text, and until when its echo counts (Infinity while the request runs). */
interface Sent {
  text: string;
  until: number;
}

export class SettingSync {
  readonly #options: SettingSyncOptions;
  /** Each setting's value as this page shows it, as text (comparisons ignore key order). */
  #shown = new Map<string, string>();
  #current = new Map<string, unknown>();
  #pending = new Map<string, unknown>();
  #sent = new Map<string, Sent[]>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by reset(), so a request from before it does not touch the new state. */
  #epoch = 0;

  constructor(options: SettingSyncOptions) {
    this.#options = options;
  }

  /** Every setting as this page knows it. */
  get current(): ReadonlyMap<string, unknown> {
    return this.#current;
  }

  /** The user changed settings here: remembered, and shared once the changes pause. */
  local(changes: Iterable<[string, unknown]>): void {
    let changed = false;
    for (const [key, value] of changes) {
      if (value === undefined) continue;
      const text = stableJson(value);
      if (this.#shown.get(key) === text) continue;
      this.#shown.set(key, text);
      this.#current.set(key, value);
      this.#pending.set(key, value);
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
    const changes = this.#pending;
    this.#pending = new Map();
    if (changes.size === 0) return;
    const entries = [...changes].map(([key, value]) => {
      const sent: Sent = { text: stableJson(value), until: Infinity };
      this.#sent.set(key, [...(this.#sent.get(key) ?? []), sent]);
      return sent;
    });
    const epoch = this.#epoch;
    const settle = (): void => {
      if (epoch !== this.#epoch) return;
      for (const sent of entries) sent.until = performance.now() + ECHO_GRACE_MS;
    };
    // A refused share leaves the page as the user set it; the room's next value still applies.
    this.#options.send(changes).then(settle, settle);
  }

  /** The room's values (null or undefined: none): applies what differs from what is shown and is not held. */
  remote(values: Iterable<[string, unknown]>): void {
    const apply = new Map<string, unknown>();
    for (const [key, value] of values) {
      if (value === undefined || value === null) continue;
      const text = stableJson(value);
      if (this.#isEchoOrStale(key, text) || this.#pending.has(key) || this.#shown.get(key) === text) continue;
      this.#shown.set(key, text);
      this.#current.set(key, value);
      apply.set(key, value);
    }
    if (apply.size > 0) this.#options.apply(apply);
  }

  /** True while this page's own value of `key` wins over the room's (waiting to be sent, or its echo awaited). */
  held(key: string): boolean {
    if (this.#pending.has(key)) return true;
    const now = performance.now();
    return (this.#sent.get(key) ?? []).some((sent) => sent.until > now);
  }

  /** Forgets everything (another room, or following stopped); nothing waiting is sent. */
  reset(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#epoch++;
    this.#shown.clear();
    this.#sent.clear();
    this.#current = new Map();
    this.#pending = new Map();
  }

  /**
   * True when `text` is one of this page's own sent values coming back (it and every older
   * one are then done), or when an own value is still on its way back (the value predates it).
   */
  #isEchoOrStale(key: string, text: string): boolean {
    const now = performance.now();
    const sent = (this.#sent.get(key) ?? []).filter((s) => s.until > now);
    const mine = sent.findIndex((s) => s.text === text);
    if (mine >= 0) {
      sent.splice(0, mine + 1);
      this.#store(key, sent);
      return true;
    }
    this.#store(key, sent);
    return sent.length > 0;
  }

  #store(key: string, sent: Sent[]): void {
    if (sent.length > 0) this.#sent.set(key, sent);
    else this.#sent.delete(key);
  }
}
