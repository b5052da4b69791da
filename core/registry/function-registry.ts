/**
 * @module function-registry
 * FunctionRegistry: the named functions the host can run, from plugin bundles, code and
 * relayed workers. Names are unique; a second registration of a name is refused.
 */
import type { FunctionEntry } from './function-entry.ts';

export class FunctionRegistry {
  #entries = new Map<string, FunctionEntry>();

  /** Adds a function; throws when the name is taken (unless `replace`). */
  register(entry: FunctionEntry, options: { replace?: boolean } = {}): void {
    if (!options.replace && this.#entries.has(entry.name)) {
      throw new Error(`function '${entry.name}' is already registered`);
    }
    this.#entries.set(entry.name, entry);
  }

  get(name: string): FunctionEntry | undefined {
    return this.#entries.get(name);
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Removes every function matching `predicate` (plugin reloads, departed workers). */
  removeWhere(predicate: (entry: FunctionEntry) => boolean): number {
    let removed = 0;
    for (const [name, entry] of this.#entries) {
      if (predicate(entry)) {
        this.#entries.delete(name);
        removed++;
      }
    }
    return removed;
  }

  /** Every function, sorted by name. */
  list(): FunctionEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get size(): number {
    return this.#entries.size;
  }
}
