/**
 * @module view-sync
 * ViewSync: how a followed room looks (window, colour map, opacity, mode, camera), kept in step
 * between this page and the room: a `view` event from the room is applied here, a change the
 * user makes here is shared with the room after a short quiet spell, never echoed back and
 * never pulled back by an older event (setting-sync.ts says how).
 */
import type { RoomView } from '../../core/wire/room-types.ts';
import { SettingSync } from './setting-sync.ts';

/** The settings a room shares, in the order they are applied. */
export const VIEW_FIELDS = ['window', 'colormap', 'opacity', 'mode', 'camera'] as const;
type Field = (typeof VIEW_FIELDS)[number];

export interface ViewSyncOptions {
  /** Shares `view` (only the changed settings) with the room. */
  send(view: RoomView): Promise<void>;
  /** Shows the settings of `view` on the page (not to be reported back as the user's change). */
  apply(view: RoomView): void;
  /** The quiet spell before a change is sent. @defaultValue 200 ms */
  debounceMs?: number;
}

/** The settings of `changes` that a view has, as a view (in the order views apply them). */
function toView(changes: ReadonlyMap<string, unknown>): RoomView {
  const view: Record<string, unknown> = {};
  for (const field of VIEW_FIELDS) if (changes.has(field)) view[field] = changes.get(field);
  return view as RoomView;
}

function entriesOf(view: RoomView): [Field, unknown][] {
  return VIEW_FIELDS.map((field) => [field, view[field]]);
}

export class ViewSync {
  readonly #sync: SettingSync;

  constructor(options: ViewSyncOptions) {
    this.#sync = new SettingSync({
      send: (changes) => options.send(toView(changes)),
      apply: (changes) => options.apply(toView(changes)),
      debounceMs: options.debounceMs,
    });
  }

  /** The room's view as this page knows it (to apply to newly shown content). */
  get current(): RoomView {
    return toView(this.#sync.current);
  }

  /** The user changed settings here: remembered, and shared once the changes pause. */
  local(change: RoomView): void {
    this.#sync.local(entriesOf(change));
  }

  /** A `view` event (or the view read on connect): applies what differs from what is shown. */
  remote(view: RoomView | null): void {
    if (view) this.#sync.remote(entriesOf(view));
  }

  /** Forgets everything (another room, or following stopped); nothing waiting is sent. */
  reset(): void {
    this.#sync.reset();
  }
}
