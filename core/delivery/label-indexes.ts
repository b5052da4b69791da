/**
 * @module label-indexes
 * The label index of a labels volume (its ids, their voxel counts and boxes), found on an
 * encode thread in the asking client's turn, once per volume, and kept beside it as any
 * variant is. Segment surfaces, level sets and the OME-Zarr label metadata all read it.
 */
import { labelIndexBytes, type LabelIndex } from '../labels/label-index.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { Memo, VariantKeeper } from './variant-keeper.ts';
import type { VariantWork } from './variant-work.ts';

export class LabelIndexes {
  #work: VariantWork;
  #keeper: VariantKeeper;
  #indexes = new WeakMap<object, Memo<LabelIndex>>();

  constructor(work: VariantWork, keeper: VariantKeeper) {
    this.#work = work;
    this.#keeper = keeper;
  }

  /** The index of `volume`: found once, kept with the volume. */
  of(volume: StoredResult & { type: 'volume' }, client = ''): Promise<LabelIndex> {
    return this.#keeper.once(this.#indexes, volume, 'labels', () => this.#work.run(client, { op: 'labelIndex', volume }, volume), labelIndexBytes);
  }
}
