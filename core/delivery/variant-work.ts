/**
 * @module variant-work
 * Variant work on the encode threads, taken by turns (fair-turns.ts): round-robin between the
 * clients asking, with one thread kept for variants of small results, so a client asking for a
 * small one never waits for a large one being made for someone else. Everything made for a
 * delivery (variants, label indexes, level sets) waits in these one set of turns.
 */
import type { StoredResult } from '../results/stored-result.ts';
import { resultByteLength } from '../results/to-json-result.ts';
import type { DeliveryTask, DeliveryTaskResults, DeliveryTaskRunner } from './delivery-tasks.ts';
import { FairTurns } from './fair-turns.ts';

/** Encode threads kept for variants of small results (beside the others, which take any work). */
export const SMALL_VARIANT_LANE = 1;

/** A result up to this many bytes is small: its variants take a few milliseconds to make. */
export const SMALL_VARIANT_BYTES = 1024 * 1024;

export class VariantWork {
  #runner: DeliveryTaskRunner;
  /** The turns every piece of work for a delivery waits in. */
  readonly turns: FairTurns;

  constructor(runner: DeliveryTaskRunner) {
    this.#runner = runner;
    const lane = runner.threads > SMALL_VARIANT_LANE ? SMALL_VARIANT_LANE : 0;
    this.turns = new FairTurns(runner.threads - lane, undefined, lane);
  }

  /** Runs `task` on the encode pool in `client`'s turn; work on a small `result` may take the small lane. */
  run<T extends DeliveryTask>(client: string, task: T, result?: StoredResult): Promise<DeliveryTaskResults[T['op']]> {
    const small = result !== undefined && resultByteLength(result) <= SMALL_VARIANT_BYTES;
    return this.turns.run(client, () => this.#runner.run(task), small);
  }
}
