/**
 * @module lod-store
 * The fragments a layer holds and the requests that bring them. Each frame hands it what the
 * selection wants, most urgent first: it keeps at most `concurrency` requests in flight (the
 * rest wait their turn, starting as soon as a request ends rather than at the next frame, and
 * a waiting one no longer wanted by the next frame is dropped), cancels a request in
 * flight once it has gone unwanted for a moment (the camera moved away), and decodes each
 * fragment's meshopt GLB into a geometry. What it holds is bounded in bytes: past the bound the
 * fragments drawn longest ago leave GPU and JS memory, never one drawn now nor an ancestor of
 * one (a fragment's parent must be at hand to draw again when the camera backs away).
 */
import type * as THREE from 'three';
import { isAbortError } from '../../../core/client/errors.ts';
import type { LodNode } from './lod-tree.ts';

/** A request unwanted for this long is cancelled (a camera that stops briefly keeps its fetches). */
export const CANCEL_AFTER_MS = 400;

/** A decoded fragment: its geometry (quantised) and the matrix that places it in physical units. */
export interface HeldFragment {
  geometry: THREE.BufferGeometry;
  matrix: THREE.Matrix4;
  bytes: number;
}

/** One thing to fetch: a fragment, or a level's list of fragments. */
export interface LodTask {
  key: string;
  urgency: number;
  run(signal: AbortSignal): Promise<void>;
}

export interface LodStoreOptions {
  concurrency: number;
  /** The byte bound of held fragments (read each frame: a headset's is lower). */
  maxBytes(): number;
  /** A fragment's GLB decoded. */
  decode(node: LodNode, signal: AbortSignal): Promise<HeldFragment>;
  /** Something came in (a frame should select again). */
  arrived(): void;
  /** A request failed for a reason other than being cancelled. */
  failed(error: unknown): void;
}

interface Flight {
  controller: AbortController;
  wanted: number;
}

export class LodStore {
  readonly #options: LodStoreOptions;
  /** Held fragments, least recently drawn first. */
  readonly #held = new Map<string, HeldFragment>();
  readonly #flights = new Map<string, Flight>();
  /** Keys that failed: not asked again by this layer. */
  readonly #failed = new Set<string>();
  #bytes = 0;
  #disposed = false;
  /** The latest frame's wants, and the keys done since: a request that ends starts the next at once. */
  #wants: readonly LodTask[] = [];
  readonly #done = new Set<string>();
  /** Requests started, cancelled and fragments let go since the layer was made. */
  readonly counts = { started: 0, cancelled: 0, evicted: 0, fetchedBytes: 0 };

  constructor(options: LodStoreOptions) {
    this.#options = options;
  }

  get bytes(): number {
    return this.#bytes;
  }

  get inFlight(): number {
    return this.#flights.size;
  }

  /** Whether the task `key` failed (it is not asked again). */
  failed(key: string): boolean {
    return this.#failed.has(key);
  }

  has(node: LodNode): boolean {
    return this.#held.has(node.key);
  }

  get(node: LodNode): HeldFragment | undefined {
    return this.#held.get(node.key);
  }

  /** A fragment's task: fetched and decoded, then held. */
  fragmentTask(node: LodNode, urgency: number): LodTask {
    return {
      key: node.key,
      urgency,
      run: async (signal) => {
        const held = await this.#options.decode(node, signal);
        if (this.#disposed || signal.aborted) return held.geometry.dispose();
        this.#held.set(node.key, held);
        this.#bytes += held.bytes;
        this.counts.fetchedBytes += node.entry.bytes;
      },
    };
  }

  /**
   * One frame's wants (most urgent first) and what it draws: `drawn` are marked as used, and
   * `kept` (drawn fragments and their ancestors) are never let go.
   */
  update(tasks: readonly LodTask[], drawn: readonly LodNode[], kept: ReadonlySet<string>, now = performance.now()): void {
    for (const node of drawn) {
      const held = this.#held.get(node.key);
      if (!held) continue;
      this.#held.delete(node.key);
      this.#held.set(node.key, held);
    }
    const wanted = new Set(tasks.map((task) => task.key));
    for (const [key, flight] of this.#flights) {
      if (wanted.has(key)) flight.wanted = now;
      else if (now - flight.wanted > CANCEL_AFTER_MS) {
        flight.controller.abort();
        this.#flights.delete(key);
        this.counts.cancelled++;
      }
    }
    this.#wants = tasks;
    this.#done.clear();
    this.#fill(now);
    this.#evict(kept);
  }

  /** Starts the most urgent wants not in flight, held or done, up to the concurrency. */
  #fill(now: number): void {
    for (const task of this.#wants) {
      if (this.#flights.size >= this.#options.concurrency) break;
      if (this.#flights.has(task.key) || this.#held.has(task.key) || this.#failed.has(task.key) || this.#done.has(task.key)) continue;
      this.#start(task, now);
    }
  }

  #start(task: LodTask, now: number): void {
    const flight: Flight = { controller: new AbortController(), wanted: now };
    this.#flights.set(task.key, flight);
    this.counts.started++;
    task.run(flight.controller.signal).then(
      () => {
        if (this.#flights.get(task.key) === flight) this.#flights.delete(task.key);
        if (this.#disposed || flight.controller.signal.aborted) return;
        // The slot is free now, not at the next frame (a frame may be slow to come).
        this.#done.add(task.key);
        this.#fill(performance.now());
        this.#options.arrived();
      },
      (error: unknown) => {
        if (this.#flights.get(task.key) === flight) this.#flights.delete(task.key);
        if (this.#disposed || isAbortError(error) || flight.controller.signal.aborted) return;
        this.#failed.add(task.key);
        this.#options.failed(error);
      },
    );
  }

  /** Lets go of the least recently drawn fragments past the bound, never a kept one. */
  #evict(kept: ReadonlySet<string>): void {
    const bound = this.#options.maxBytes();
    if (this.#bytes <= bound) return;
    for (const [key, held] of this.#held) {
      if (this.#bytes <= bound) break;
      if (kept.has(key)) continue;
      held.geometry.dispose();
      this.#held.delete(key);
      this.#bytes -= held.bytes;
      this.counts.evicted++;
    }
  }

  /** Cancels every request and frees every fragment. */
  dispose(): void {
    this.#disposed = true;
    for (const flight of this.#flights.values()) flight.controller.abort();
    this.#flights.clear();
    for (const held of this.#held.values()) held.geometry.dispose();
    this.#held.clear();
    this.#bytes = 0;
  }
}
