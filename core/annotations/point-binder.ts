/**
 * @module point-binder
 * Marks as inputs: a layer whose source binds a parameter to the room's points (`"bind":
 * {"seeds": {"label": "seed"}}`) is computed again when the room's annotations change, at most
 * once per interval (200 ms) per room: the first change starts the interval, every change
 * within it joins the one recomputation at its end (which reads the points as they are then),
 * and a change during a recomputation brings one more after the next interval. It runs on the
 * host that made the change; which layers bind and how they are computed is the scenes' to
 * say, through a port of one method, so this module knows nothing of scenes.
 */

/** What the binder asks of the scenes. */
export interface BinderPort {
  /** Computes again every layer of the room whose source binds points (their new points read now). */
  recomputeBound(roomId: string): Promise<void>;
}

interface RoomState {
  timer: NodeJS.Timeout | null;
  running: boolean;
  dirty: boolean;
}

export class PointBinder {
  #port: BinderPort;
  #intervalMs: number;
  #onError: (roomId: string, error: unknown) => void;
  #rooms = new Map<string, RoomState>();
  #closed = false;

  constructor(port: BinderPort, options: { intervalMs?: number; onError?: (roomId: string, error: unknown) => void } = {}) {
    this.#port = port;
    this.#intervalMs = options.intervalMs ?? 200;
    this.#onError = options.onError ?? (() => {});
  }

  /** The room's annotations changed. */
  changed(roomId: string): void {
    if (this.#closed) return;
    const state = this.#rooms.get(roomId);
    if (state) {
      // Joins the recomputation waiting for its interval, or asks for one after the running one.
      if (state.running) state.dirty = true;
      return;
    }
    this.#schedule(roomId, { timer: null, running: false, dirty: false });
  }

  #schedule(roomId: string, state: RoomState): void {
    this.#rooms.set(roomId, state);
    state.timer = setTimeout(() => void this.#run(roomId, state), this.#intervalMs);
    state.timer.unref();
  }

  async #run(roomId: string, state: RoomState): Promise<void> {
    state.timer = null;
    state.running = true;
    try {
      await this.#port.recomputeBound(roomId);
    } catch (error) {
      this.#onError(roomId, error);
    }
    state.running = false;
    if (state.dirty && !this.#closed) {
      state.dirty = false;
      this.#schedule(roomId, state);
    } else {
      this.#rooms.delete(roomId);
    }
  }

  close(): void {
    this.#closed = true;
    for (const state of this.#rooms.values()) if (state.timer) clearTimeout(state.timer);
    this.#rooms.clear();
  }
}
