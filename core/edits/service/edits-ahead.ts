/**
 * @module edits-ahead
 * A layer's edits applied ahead of their records: each is kept in the store once the one before
 * it was (so records come in version order), and the turn that planned it goes on to plan the
 * next meanwhile. When one is not kept (another host came first, or the store failed), every
 * edit ahead is taken back at once, and those after it are not sent: each is planned again by
 * whoever asked. The round counts the times the edits ahead were taken back.
 */
import type { EditRecord } from '../../wire/edit-types.ts';
import type { LayerEdits, PlannedEdit } from '../layer-edits.ts';

interface Chain {
  /** The last edit's keeping: the next waits for it, whatever its end. */
  tail: Promise<EditRecord | null>;
  round: number;
}

export class EditsAhead {
  #chains = new Map<string, Chain>();

  #chain(key: string): Chain {
    let chain = this.#chains.get(key);
    if (!chain) this.#chains.set(key, (chain = { tail: Promise.resolve(null), round: 0 }));
    return chain;
  }

  /** Settled once every edit ahead of layer `key` now is kept or taken back. */
  settled(key: string): Promise<unknown> {
    return this.#chain(key).tail;
  }

  /**
   * Applies `planned` to `edits` ahead of its record and keeps it by `append` (at the version it
   * was planned on) after the edits before it; answers its record, or null when it was taken back.
   * `kept` is told of each record kept.
   */
  keep(key: string, edits: LayerEdits, planned: PlannedEdit, append: () => Promise<EditRecord | null>, kept: () => void): Promise<EditRecord | null> {
    const chain = this.#chain(key);
    const round = chain.round;
    edits.ahead(planned);
    const takeBack = () => {
      chain.round++;
      edits.retract();
    };
    const keeping = chain.tail.then(async () => {
      if (chain.round !== round) return null;
      const record = await append().catch((err: unknown) => {
        takeBack();
        throw err;
      });
      if (!record) {
        takeBack();
        return null;
      }
      edits.kept(record);
      kept();
      return record;
    });
    chain.tail = keeping.catch(() => null);
    return keeping;
  }
}
