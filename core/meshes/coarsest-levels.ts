/**
 * @module coarsest-levels
 * The coarsest levels of level sets being built coarsest first, held until each set is done:
 * what a viewer's first reads of such a segment are answered from meanwhile. The thread that
 * builds a set posts its coarsest level on a port of its task (run-lods-task.ts).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { CoarsestLevel } from './level-set.ts';

/** Tells a set's coarsest level, once its thread has it. */
export type TellCoarsest = (coarsest: CoarsestLevel) => void;

export class CoarsestLevels<R extends object> {
  #held = new WeakMap<R, Map<number, Promise<CoarsestLevel>>>();

  /** Waits for `segment`'s coarsest level of `result`, until {@link until}; what tells it. */
  expect(result: R, segment: number): TellCoarsest {
    let told!: TellCoarsest;
    const coarsest = new Promise<CoarsestLevel>((resolve) => (told = resolve));
    let table = this.#held.get(result);
    if (!table) this.#held.set(result, (table = new Map()));
    table.set(segment, coarsest);
    return told;
  }

  /** Forgets `segment`'s coarsest level of `result` once `done` (its set's build) settles. */
  until(result: R, segment: number, done: Promise<unknown>): void {
    const coarsest = this.of(result, segment);
    const forget = () => this.of(result, segment) === coarsest && this.#held.get(result)!.delete(segment);
    void done.then(forget, forget);
  }

  /** `segment`'s coarsest level of `result`, while its set is being built coarsest first. */
  of(result: R, segment: number): Promise<CoarsestLevel> | undefined {
    return this.#held.get(result)?.get(segment);
  }
}

/** A port for a build task on which its thread posts the coarsest level, handed to `told`; closed by `close`. */
export function coarsestPort(told: TellCoarsest): { port: MessagePort; close(): void } {
  const channel = new MessageChannel();
  channel.port1.on('message', (coarsest: CoarsestLevel) => told(coarsest));
  return { port: channel.port2, close: () => channel.port1.close() };
}
