/**
 * @module result-counts
 * How many time steps and channels the result a layer shows has, which a layer's `t` and
 * `channels` are checked and fitted against (scenes/layer-steps.ts). Anything but a volume has
 * one of each; a volume's are read from the result while a host holds it. A result id names
 * its content, so what was once read of an id holds for good: it is kept (a bounded number),
 * and a leader stepping through a time-lapse costs no lookup of the result each step, even on
 * a Redis service where the lookup would fetch it.
 */
import type { LayerResult } from '../../wire/scene-types.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import { SINGLE_STEP, stepCountsOf, type StepCounts } from '../layer-steps.ts';
import type { ResultIds } from '../../serving/result-ids.ts';

/** Result ids whose counts are kept (the oldest go first). */
const KEPT = 1_000;

export class ResultCounts {
  #resultIds: Pick<ResultIds, 'find'>;
  #known = new Map<string, StepCounts>();

  constructor(resultIds: Pick<ResultIds, 'find'>) {
    this.#resultIds = resultIds;
  }

  /** The counts of `result`, whose id is `resultId` (just computed: no lookup needed later). */
  remember(resultId: string, result: StoredResult): StepCounts {
    const counts = stepCountsOf(result);
    if (result.type !== 'volume') return counts;
    this.#known.delete(resultId);
    this.#known.set(resultId, counts);
    if (this.#known.size > KEPT) this.#known.delete(this.#known.keys().next().value!);
    return counts;
  }

  /** The counts of the result a layer shows; null when not known (none yet, or no longer held). */
  async of(result: LayerResult | undefined): Promise<StepCounts | null> {
    if (!result) return null;
    if (result.type !== 'volume') return SINGLE_STEP;
    if (!result.result_id) return null;
    const known = this.#known.get(result.result_id);
    if (known) return known;
    const held = await this.#resultIds.find(result.result_id).catch(() => null);
    return held ? this.remember(result.result_id, held) : null;
  }
}
