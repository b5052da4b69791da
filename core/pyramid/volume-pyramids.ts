/**
 * @module volume-pyramids
 * The pyramids of the volumes this host serves as OME-Zarr stores: made once per result on
 * the encode worker thread (concurrent first readers share the one making), kept beside the
 * result as a dependent in the host's result budget (counted in its bytes, gone when the
 * result goes, or earlier when the budget needs room), made again if a reader comes after.
 * The thread is reached through a `PyramidRunner` the host hands in (the worker pool runs
 * this folder's `buildPyramid`), so the pyramid stays below the transport that runs it.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { pyramidShapes, type StoredVolume } from './volume-pyramid.ts';

/** Makes the levels below level 0 of a volume on an encode thread (largest first). */
export type PyramidRunner = (volume: StoredVolume) => Promise<StoredVolume[]>;

/** The levels of one volume, level 0 (the volume itself) first. */
export interface Pyramid {
  levels: StoredVolume[];
}

export class VolumePyramids {
  #run: PyramidRunner;
  #budget: ResultBudget<StoredResult>;
  #made = new WeakMap<StoredVolume, Promise<Pyramid>>();

  constructor(run: PyramidRunner, budget: ResultBudget<StoredResult>) {
    this.#run = run;
    this.#budget = budget;
  }

  /** The pyramid of `volume`, made on first use. */
  of(volume: StoredVolume): Promise<Pyramid> {
    this.#budget.touch(volume);
    const existing = this.#made.get(volume);
    if (existing) {
      void existing.then((pyramid) => this.#budget.touch(pyramid), () => {});
      return existing;
    }
    const making = this.#make(volume).then(
      (pyramid) => {
        if (pyramid.levels.length > 1) {
          const bytes = pyramid.levels.slice(1).reduce((sum, level) => sum + level.data.byteLength, 0);
          this.#budget.holdDependent(pyramid, bytes, volume, 'pyramid', () => {
            if (this.#made.get(volume) === making) this.#made.delete(volume);
          });
        }
        return pyramid;
      },
      (error: unknown) => {
        this.#made.delete(volume);
        throw error;
      },
    );
    this.#made.set(volume, making);
    return making;
  }

  async #make(volume: StoredVolume): Promise<Pyramid> {
    // A volume that is already small is its own one level: no trip to the thread.
    if (pyramidShapes(volume.shape).length === 1) return { levels: [volume] };
    return { levels: [volume, ...(await this.#run(volume))] };
  }
}
