/**
 * @module room-scheduler
 * Hands out compute threads fairly across rooms, and keeps a lane for short work.
 *
 * - `threads` general threads run anything; at most `perRoom` of them hold one room's runs,
 *   and waiting runs take them round-robin across rooms (RoomQueue below), long runs first.
 * - `lane` more threads run only computations expected to be short (run-durations.ts: the
 *   function's recent runs were each under 250 ms), round-robin across rooms too. So a short
 *   computation starts within about 250 ms however many long runs from however many rooms
 *   hold the general threads, and a flood of short work takes no general thread from long work
 *   that is waiting.
 * - A lane run that passes 250 ms was misjudged: it moves out of the lane to a spill slot (at
 *   most `lane` of them), freeing the lane for the next short run. Its function is long from
 *   then on, until its runs are short again.
 * Runs take a slot before they reach the thread pool, whose size is {@link RoomScheduler.capacity},
 * so the pool's own FIFO queue stays empty and this is the only queue.
 */
import { createHostError } from '../errors.ts';
import { RunDurations, SHORT_RUN_MS } from './run-durations.ts';

/** Threads kept for short computations, beside the general ones. */
export const SHORT_LANE_THREADS = 1;

type Slot = 'general' | 'lane' | 'spill';

/**
 * Gives a thread back; `completed` false when the run was cancelled (it then teaches nothing
 * about its length); `ms`: the call's length as its thread measured it, when known. Without
 * it the run is timed from `running()`, which says the function itself starts now (not from
 * the grant: a new thread first starts and loads the bundle).
 */
export type ReleaseThread = ((completed?: boolean, ms?: number) => void) & {
  running(): void;
  /** True when the run holds the short lane (or, misjudged, its spill): a Python call may then take a spare process. */
  readonly short: boolean;
};

interface Waiter {
  readonly room: string;
  readonly fn: string | null;
  grant(slot: Slot): void;
}

/**
 * Waiting runs grouped by room and served round-robin: each turn takes the oldest waiter of the
 * first room that may run, and that room goes to the back of the line, so a room with forty
 * waiting runs gets one turn like a room with one.
 */
class RoomQueue {
  /** Waiters by room; rooms in the order they are served. */
  #rooms = new Map<string, Waiter[]>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  has(room: string): boolean {
    return this.#rooms.has(room);
  }

  push(waiter: Waiter): void {
    const list = this.#rooms.get(waiter.room);
    if (list) list.push(waiter);
    else this.#rooms.set(waiter.room, [waiter]);
    this.#size++;
  }

  /** Removes `waiter` (a cancelled wait); false when it was not waiting. */
  remove(waiter: Waiter): boolean {
    const list = this.#rooms.get(waiter.room);
    const at = list?.indexOf(waiter) ?? -1;
    if (!list || at < 0) return false;
    list.splice(at, 1);
    if (list.length === 0) this.#rooms.delete(waiter.room);
    this.#size--;
    return true;
  }

  /** Takes the next waiter of the first room `mayRun` allows, in turn order; undefined if none. */
  take(mayRun: (room: string) => boolean): Waiter | undefined {
    for (const [room, list] of this.#rooms) {
      if (!mayRun(room)) continue;
      const waiter = list.shift()!;
      // The room goes to the back of the line: the next turn serves the others first.
      this.#rooms.delete(room);
      if (list.length > 0) this.#rooms.set(room, list);
      this.#size--;
      return waiter;
    }
    return undefined;
  }

  /** Removes and returns every waiter `match` selects, in turn order. */
  extract(match: (waiter: Waiter) => boolean): Waiter[] {
    const out: Waiter[] = [];
    for (const [room, list] of this.#rooms) {
      const kept = list.filter((waiter) => !match(waiter) || (out.push(waiter), false));
      if (kept.length === list.length) continue;
      this.#size -= list.length - kept.length;
      if (kept.length === 0) this.#rooms.delete(room);
      else this.#rooms.set(room, kept);
    }
    return out;
  }
}

export interface RoomSchedulerOptions {
  /** General compute threads. */
  threads: number;
  /** General threads one room may hold at once. */
  perRoom: number;
  /** Threads kept for short work. @defaultValue {@link SHORT_LANE_THREADS} */
  lane?: number;
  /** What is known of each function's run times (shared by tests). */
  durations?: RunDurations;
}

export class RoomScheduler {
  readonly threads: number;
  readonly perRoom: number;
  readonly lane: number;
  #durations: RunDurations;
  #busy: Record<Slot, number> = { general: 0, lane: 0, spill: 0 };
  #generalByRoom = new Map<string, number>();
  #long = new RoomQueue();
  #short = new RoomQueue();

  constructor(options: RoomSchedulerOptions) {
    this.threads = options.threads;
    this.perRoom = Math.min(options.perRoom, options.threads);
    this.lane = options.lane ?? SHORT_LANE_THREADS;
    this.#durations = options.durations ?? new RunDurations();
  }

  /** Threads the pool under this scheduler needs: the general ones, the lane and its spill. */
  get capacity(): number {
    return this.threads + 2 * this.lane;
  }

  /**
   * Threads started with the host and kept: the short lane's, so a first run never waits for a
   * thread to start. The general threads start as runs need them and stay while used: each
   * costs a host about 0.4 CPU-seconds to start, which a host that serves stored results, or
   * computes one thing at a time, never needed to pay.
   */
  get warmThreads(): number {
    return this.lane;
  }

  /** Runs holding a thread now. */
  get busy(): number {
    return this.#busy.general + this.#busy.lane + this.#busy.spill;
  }

  /** Runs waiting for a thread. */
  get queued(): number {
    return this.#long.size + this.#short.size;
  }

  /**
   * Resolves with a release function once a run of `fn` (unnamed: treated as long) for `room`
   * may use a thread. Aborting `signal` while waiting rejects with SPC_ERR_JOB_CANCELLED and
   * gives up the place in line.
   */
  acquire(room: string, signal?: AbortSignal, fn?: string): Promise<ReleaseThread> {
    if (signal?.aborted) return Promise.reject(createHostError('SPC_ERR_JOB_CANCELLED'));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (this.#long.remove(waiter) || this.#short.remove(waiter)) reject(createHostError('SPC_ERR_JOB_CANCELLED'));
      };
      const waiter: Waiter = {
        room,
        fn: fn ?? null,
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(this.#take(waiter, slot));
        },
      };
      (this.#isShort(waiter) ? this.#short : this.#long).push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#dispatch();
    });
  }

  #isShort(waiter: Waiter): boolean {
    return waiter.fn !== null && this.#durations.isShort(waiter.fn);
  }

  #mayTakeGeneral = (room: string): boolean => (this.#generalByRoom.get(room) ?? 0) < this.perRoom;

  #take(waiter: Waiter, slot: Slot): ReleaseThread {
    const { room, fn } = waiter;
    const timed = fn === null ? null : this.#durations.start(fn);
    let current = slot;
    this.#busy[slot]++;
    if (slot === 'general') this.#generalByRoom.set(room, (this.#generalByRoom.get(room) ?? 0) + 1);
    let released = false;
    // A lane run still going at the mark was misjudged: it leaves the lane for the spill.
    const spill = () => {
      if (released || current !== 'lane' || this.#busy.spill >= this.lane) return;
      this.#busy.lane--;
      this.#busy.spill++;
      current = 'spill';
      this.#dispatch();
    };
    let timer = slot === 'lane' ? setTimeout(spill, SHORT_RUN_MS).unref() : undefined;
    const release = (completed = true, ms?: number) => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      this.#busy[current]--;
      if (current === 'general') {
        const left = (this.#generalByRoom.get(room) ?? 1) - 1;
        if (left === 0) this.#generalByRoom.delete(room);
        else this.#generalByRoom.set(room, left);
      }
      timed?.end(completed, ms);
      if (fn !== null && this.#long.size > 0 && this.#durations.isShort(fn)) this.#promote(fn);
      this.#dispatch();
    };
    const running = () => {
      timed?.restart();
      if (timer === undefined || released) return;
      clearTimeout(timer);
      timer = setTimeout(spill, SHORT_RUN_MS).unref();
    };
    return Object.assign(release, { running, short: slot !== 'general' });
  }

  /** Moves runs of `fn` that wait as long work to the short lane, now that its runs are short. */
  #promote(fn: string): void {
    for (const waiter of this.#long.extract((w) => w.fn === fn)) this.#short.push(waiter);
  }

  /** The next short waiter a room allowed by `mayRun` has; waiters no longer short go to the long line. */
  #takeShort(mayRun: (room: string) => boolean): Waiter | undefined {
    for (;;) {
      const waiter = this.#short.take(mayRun);
      if (!waiter || this.#isShort(waiter)) return waiter;
      this.#long.push(waiter);
    }
  }

  /** Grants free threads: general ones to long runs first, then short; the lane to short runs. */
  #dispatch(): void {
    for (let granted = true; granted; ) {
      granted = false;
      if (this.#busy.general < this.threads) {
        const waiter = this.#long.take(this.#mayTakeGeneral) ?? this.#takeShort(this.#mayTakeGeneral);
        if (waiter) {
          waiter.grant('general');
          granted = true;
          continue;
        }
      }
      if (this.#busy.lane < this.lane) {
        const waiter = this.#takeShort(() => true);
        if (waiter) {
          waiter.grant('lane');
          granted = true;
        }
      }
    }
  }
}
