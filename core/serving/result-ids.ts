/**
 * @module result-ids
 * The ids of the results one host holds, and the way back from an id to its result. An id is
 * worked out once per result (results/result-id.ts): inline for a small result, on the
 * encode thread for a large one, so hashing never holds up the event loop. Looking an id up
 * finds a result this host still holds (a room entry or a finished job's result: evicted or
 * released ones are gone), else, on a Redis service, the result stored under that hash.
 */
import type Tinypool from 'tinypool';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { HashTask } from '../workers/protocol.ts';
import { runTask } from '../workers/task-pool.ts';
import { computeResultId, knownResultId, rememberResultId } from '../results/result-id.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';

/** The response header naming the result a response carries. */
export const RESULT_ID_HEADER = 'x-result-id';

/** Below this many bytes, hashing inline is cheaper than a thread hop (~2 ms at most). */
const INLINE_BYTES = 1024 * 1024;

export class ResultIds {
  #pool: Tinypool;
  #budget: ResultBudget<StoredResult>;
  #pending = new WeakMap<StoredResult, Promise<string>>();
  #index = new Map<string, WeakRef<StoredResult>>();
  #forget = new FinalizationRegistry<string>((id) => {
    if (!this.#index.get(id)?.deref()) this.#index.delete(id);
  });
  #remote: ((id: string, client: string) => Promise<StoredResult | null>) | null = null;

  constructor(pool: Tinypool, budget: ResultBudget<StoredResult>) {
    this.#pool = pool;
    this.#budget = budget;
  }

  /** Where ids this host does not hold are looked up (a Redis service's blob store), for the client asking. */
  useRemote(find: (id: string, client: string) => Promise<StoredResult | null>): void {
    this.#remote = find;
  }

  /** Indexes `result` under `id` (the newest object of that content wins); returns the id. */
  #remember(result: StoredResult, id: string): string {
    if (this.#index.get(id)?.deref() !== result) {
      this.#index.set(id, new WeakRef(result));
      this.#forget.register(result, id);
    }
    return id;
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
      pending = (
        resultByteLength(result) <= INLINE_BYTES
          ? Promise.resolve(computeResultId(result))
          : runTask(this.#pool, { op: 'hash', result } satisfies HashTask)
      ).then((id) => {
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
    const local = this.#index.get(id)?.deref();
    if (local && this.#budget.holds(local)) return local;
    return this.#remote ? this.#remote(id, client) : null;
  }
}
