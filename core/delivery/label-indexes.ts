/**
 * @module label-indexes
 * The label index of a labels volume (its ids, their voxel counts and boxes), found on an
 * encode thread in the asking client's turn, once per volume, and kept beside it as any
 * variant is. Segment surfaces, level sets and the OME-Zarr label metadata all read it. A
 * volume said to be an earlier one with some segments changed (an edited version) has its
 * index derived from the earlier one's, when that is known, reading the changed region alone.
 */
import { labelIndexBytes, type LabelIndex } from '../labels/label-index.ts';
import type { IndexChange } from '../labels/derived-label-index.ts';
import type { StoredResult, StoredVolume } from '../results/stored-result.ts';
import type { Memo, VariantKeeper } from './variant-keeper.ts';
import type { VariantWork } from './variant-work.ts';

export class LabelIndexes {
  #work: VariantWork;
  #keeper: VariantKeeper;
  #indexes = new WeakMap<object, Memo<LabelIndex>>();
  /** Volumes that are an earlier one (held weakly) with some segments changed. */
  #derived = new WeakMap<object, { from: WeakRef<object>; change: IndexChange }>();

  constructor(work: VariantWork, keeper: VariantKeeper) {
    this.#work = work;
    this.#keeper = keeper;
  }

  /** The index of `volume`: found once, kept with the volume. */
  of(volume: StoredVolume, client = ''): Promise<LabelIndex> {
    return this.#keeper.once(this.#indexes, volume, 'labels', () => this.#made(volume, client), labelIndexBytes);
  }

  /** Says that `volume` is `from` with only the voxels of `change.changed` segments changed, inside their earlier boxes and `change.boxes`. */
  derived(volume: StoredVolume, from: StoredResult, change: IndexChange): void {
    this.#derived.set(volume, { from: new WeakRef(from), change });
  }

  /** The index found on a thread: derived from the earlier volume's when that one's is known (or under way), else by a whole pass. */
  async #made(volume: StoredVolume, client: string): Promise<LabelIndex> {
    const said = this.#derived.get(volume);
    const from = said?.from.deref();
    const earlier = from ? this.#indexes.get(from)?.get('labels')?.catch(() => null) : undefined;
    const known = earlier ? await earlier : null;
    const derived = known && said ? { derived: { from: known, change: said.change } } : {};
    return this.#work.run(client, { op: 'labelIndex', volume, ...derived }, volume);
  }
}
