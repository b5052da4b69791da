/**
 * @module memory-kept-level-sets
 * Level sets kept in one process's memory, by name: what the conformance suite holds the other
 * homes to. A host without a data folder or a service keeps none (its result budget holds the
 * sets it made), so no host runs this one.
 */
import { unpackLevelSet, type SegmentLods } from './level-set.ts';
import type { KeptLevelSets } from './kept-level-sets.ts';

export class MemoryKeptLevelSets implements KeptLevelSets {
  #sets = new Map<string, Uint8Array>();

  async keep(name: string, lods: SegmentLods): Promise<void> {
    this.#sets.set(name, lods.packed);
  }

  async find(name: string): Promise<SegmentLods | null> {
    const packed = this.#sets.get(name);
    return packed ? unpackLevelSet(packed) : null;
  }

  /** Drops what is kept under `name` (a home losing a set). */
  forget(name: string): void {
    this.#sets.delete(name);
  }
}
