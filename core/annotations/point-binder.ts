/**
 * @module point-binder
 * Marks as inputs: a layer whose source binds a parameter to the room's points (`"bind":
 * {"seeds": {"label": "seed"}}`) is computed again when the room's annotations change, at most
 * once per interval (200 ms) per room: the first change starts the interval, every change
 * within it joins the one recomputation at its end (which reads the points as they are then),
 * and a change during a recomputation brings one more after the next interval. A change of
 * the marks concerns every bound layer; a change of the scene that moved the frames some bound
 * layers take their points in (an affine) concerns those layers alone, and the changes that
 * join one recomputation join what they concern. It runs on the host that made the change;
 * which layers bind and how they are computed is the scenes' to say, through a port of one
 * method, so this module knows nothing of scenes.
 */

/** What the binder asks of the scenes. */
export interface BinderPort {
  /**
   * Computes again the layers of the room whose source binds points (their new points read
   * now): those of `layerIds` when given, else all of them.
   */
  recomputeBound(roomId: string, layerIds?: readonly string[]): Promise<void>;
}

/** The layers a recomputation concerns: some, or every bound one. */
type Concerned = Set<string> | 'all';

interface RoomState {
  timer: NodeJS.Timeout | null;
  running: boolean;
  dirty: boolean;
  /** What the waiting recomputation (or the one after the running one) concerns. */
  next: Concerned;
}

function join(into: Concerned, layerIds: readonly string[] | undefined): Concerned {
  if (into === 'all' || layerIds === undefined) return 'all';
  for (const id of layerIds) into.add(id);
  return into;
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

  /**
   * The room's annotations changed (`layerIds` undefined: every bound layer is concerned), or
   * the frames bound layers `layerIds` take their points in moved.
   */
  changed(roomId: string, layerIds?: readonly string[]): void {
    if (this.#closed || layerIds?.length === 0) return;
    const state = this.#rooms.get(roomId);
    if (state) {
      // Joins the recomputation waiting for its interval, or asks for one after the running one.
      if (state.running) state.dirty = true;
      state.next = join(state.next, layerIds);
      return;
    }
    this.#schedule(roomId, { timer: null, running: false, dirty: false, next: join(new Set(), layerIds) });
  }

  #schedule(roomId: string, state: RoomState): void {
    this.#rooms.set(roomId, state);
    state.timer = setTimeout(() => void this.#run(roomId, state), this.#intervalMs).unref();
  }

  async #run(roomId: string, state: RoomState): Promise<void> {
    state.timer = null;
    state.running = true;
    const concerned = state.next;
    state.next = new Set();
    const layerIds = concerned === 'all' ? undefined : [...concerned];
    await this.#port.recomputeBound(roomId, layerIds).catch((error: unknown) => this.#onError(roomId, error));
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
