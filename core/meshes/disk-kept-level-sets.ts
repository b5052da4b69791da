/**
 * @module disk-kept-level-sets
 * Level sets a lone host keeps in its data folder, among its computed results
 * (`--disk-cache-max-bytes`, least recently used dropped first): each set's kept form is a
 * kept result, named for its set by a slot of its own, so a host started again finds it.
 */
import type { DiskKeptResults } from '../blobs/disk-kept-results.ts';
import { keptForm, setOfKept, type KeptLevelSets } from './kept-level-sets.ts';
import type { SegmentLods } from './level-set.ts';

/** The slot sets are named in: no room's id can hold a NUL. */
const SLOT = '\u0000mesh-levels';

export class DiskKeptLevelSets implements KeptLevelSets {
  #kept: DiskKeptResults;

  constructor(kept: DiskKeptResults) {
    this.#kept = kept;
  }

  async keep(name: string, lods: SegmentLods, keptId: string): Promise<void> {
    await this.#kept.keep(keptForm(lods.packed, keptId), { slotId: SLOT, key: name });
  }

  async find(name: string): Promise<SegmentLods | null> {
    return setOfKept(await this.#kept.recall({ slotId: SLOT, key: name }));
  }
}
