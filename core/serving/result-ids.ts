/**
 * @module result-ids
 * The ids of the results one host holds, and the way back from an id to its result. An id is
 * worked out once per result (results/result-id.ts): inline for a small result, on the
 * encode thread for a large one, so hashing never holds up the event loop. Looking an id up
 * finds a result this host still holds (a room entry, a finished job's result or a snapshot's
 * pin: evicted or released ones are gone), else, on a Redis service, the result stored under
 * that hash. One content may live in several objects at once (a snapshot pins the one its room
 * computed, and restoring it computes another in the next room): an id keeps each of them, so
 * the one that lets go does not hide the one still held. An id whose result is made only when
 * asked for (an edited labels layer's version) is made by whoever named it. Both places beyond
 * this host's memory are given at construction.
 */
import type Tinypool from 'tinypool';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { HashTask } from '../workers/protocol.ts';
import { runTask } from '../workers/task-pool.ts';
import { computeResultId, knownFrameHash, knownResultId, rememberResultId } from '../results/result-id.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import { markedRoomOf } from '../results/result-rooms.ts';
import { slotOwner } from '../events/layer-slots.ts';
import { mayReadOneOf } from '../people/specimen-access.ts';

/** The response header naming the result a response carries. */
export const RESULT_ID_HEADER = 'x-result-id';

/** Below this many bytes, hashing inline is cheaper than a thread hop (~2 ms at most). */
const INLINE_BYTES = 1024 * 1024;
/** Objects kept per id: past this the oldest goes (the same content computed in many rooms at once). */
const MAX_OBJECTS_PER_ID = 8;

/** A place that answers ids with results, or null for an id it does not know. */
export type ResultFinder = (id: string, client: string) => Promise<StoredResult | null>;

/** What ids are worked out with, and where an id this host does not hold is looked for. */
export interface ResultIdsDeps {
  /** The encode threads, which hash large results. */
  pool: Tinypool;
  budget: ResultBudget<StoredResult>;
  /** Makes a result whose id was named before it was made (an edited labels layer's version). */
  named?: ResultFinder;
  /** Where results outlive this host's memory: a Redis service's blob store, a data folder. */
  stored?: ResultFinder;
}

export class ResultIds {
  readonly #deps: ResultIdsDeps;
  #pending = new WeakMap<StoredResult, Promise<string>>();
  /** Newest first. */
  #index = new Map<string, WeakRef<StoredResult>[]>();
  #forget = new FinalizationRegistry<string>((id) => this.#prune(id));

  constructor(deps: ResultIdsDeps) {
    this.#deps = deps;
  }

  /**
   * The hash of `result`'s frame, for a result whose id is a name given it (for any other, its
   * id): what stores that check bytes name it by. Hashed off the event loop when large, and
   * indexed, so the result is found by it too.
   */
  async frameHash(result: StoredResult): Promise<string> {
    const known = knownFrameHash(result);
    if (known) return known;
    const hash = await this.#hash(result);
    rememberResultId(result, hash);
    return this.#remember(result, hash);
  }

  /** The content hash of `result`: worked out here when small, else on the encode thread. */
  #hash(result: StoredResult): Promise<string> {
    if (resultByteLength(result) <= INLINE_BYTES) return Promise.resolve(computeResultId(result));
    return runTask(this.#deps.pool, { op: 'hash', result } satisfies HashTask);
  }

  /** Indexes `result` under `id` beside the other objects of that content; returns the id. */
  #remember(result: StoredResult, id: string): string {
    const refs = this.#index.get(id) ?? [];
    if (refs[0]?.deref() === result) return id;
    const others = refs.filter((ref) => {
      const held = ref.deref();
      return held !== undefined && held !== result;
    });
    const kept = [new WeakRef(result), ...others];
    // Past the bound an object nothing holds goes first, so a pinned one is never pushed out by copies.
    while (kept.length > MAX_OBJECTS_PER_ID) {
      let drop = kept.length - 1;
      while (drop > 0 && this.#deps.budget.holds(kept[drop]!.deref()!)) drop--;
      kept.splice(drop > 0 ? drop : kept.length - 1, 1);
    }
    this.#index.set(id, kept);
    this.#forget.register(result, id);
    return id;
  }

  /** Drops the objects of `id` that were collected (and the id with the last of them). */
  #prune(id: string): void {
    const refs = this.#index.get(id)?.filter((ref) => ref.deref() !== undefined);
    if (refs?.length) this.#index.set(id, refs);
    else this.#index.delete(id);
  }

  /**
   * Takes the id a result source already knew for `result` (a room entry's): indexed like one
   * worked out here, without asking for it again. Returns `id`.
   */
  knownAs(result: StoredResult, id: string): string {
    // Kept with the result too, so a later `of` (a blob URL, an export) does not hash it again.
    rememberResultId(result, id);
    return this.#remember(result, id);
  }

  /** The id of `result`. */
  of(result: StoredResult): Promise<string> {
    const known = knownResultId(result);
    if (known) return Promise.resolve(this.#remember(result, known));
    let pending = this.#pending.get(result);
    if (!pending) {
      pending = this.#hash(result).then((id) => {
        rememberResultId(result, id);
        this.#pending.delete(result);
        return this.#remember(result, id);
      });
      pending.catch(() => this.#pending.delete(result));
      this.#pending.set(result, pending);
    }
    return pending;
  }

  /**
   * The result with id `id` while this host (or its service) holds it; else null. `client`
   * (who asks: an address) bounds how many store lookups one client may have at once.
   */
  async find(id: string, client = ''): Promise<StoredResult | null> {
    for (const ref of this.#index.get(id) ?? []) {
      const local = ref.deref();
      if (local && this.#deps.budget.holds(local)) return local;
    }
    return (await this.#deps.named?.(id, client)) ?? (await this.#deps.stored?.(id, client)) ?? null;
  }

  /**
   * The rooms whose access `result` follows: the room its published array is of, else, when rooms
   * alone hold it (their entries and layers), those rooms; null when it is no room's alone.
   */
  roomsOf(result: StoredResult): string[] | null {
    const marked = markedRoomOf(result);
    if (marked !== undefined) return [marked];
    const holders = this.#deps.budget.holdersOf(result);
    if (holders.length === 0 || !holders.every((holder) => holder.startsWith('room:'))) return null;
    return holders.map((holder) => {
      const roomId = holder.slice('room:'.length);
      return slotOwner(roomId)?.room ?? roomId;
    });
  }

  /**
   * {@link find} for a door that answers a result by its id: null, as for an id nothing holds, to
   * a request that may read none of the rooms the result follows.
   */
  async findReadable(id: string, client = ''): Promise<StoredResult | null> {
    const result = await this.find(id, client);
    return result && (await mayReadOneOf(this.roomsOf(result))) ? result : null;
  }
}
