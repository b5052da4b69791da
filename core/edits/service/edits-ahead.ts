/**
 * @module edits-ahead
 * A layer's edits applied ahead of their records, kept in the store in version order. One write
 * is under way at a time; the edits that come while it is form the next write, kept together
 * (all or none) once it ends. So a burst of edits costs one flush (or round trip) a write, not
 * one an edit, and a later edit is never kept without those it was planned on. When a write is
 * not kept (another host came first, or the store failed), every edit ahead is taken back at
 * once, the waiting ones with it: each is planned again by whoever asked.
 */
import type { EditRecord } from '../../wire/edit-types.ts';
import type { EditDraft } from '../edit-store.ts';
import type { LayerEdits, PlannedEdit } from '../layer-edits.ts';

/** Where the edits of a layer (named to the store as `L`) are kept, and who is told of each record kept. */
export interface AheadStore<L> {
  /** Keeps `drafts` as the versions after `expected`, all or none: their records, or null when the layer moved on. */
  append(layer: L, expected: number, drafts: EditDraft[]): Promise<EditRecord[] | null>;
  kept(layer: L): void;
}

interface Waiting {
  edits: LayerEdits;
  /** The version the edit was planned on. */
  on: number;
  draft: EditDraft;
  done: (record: EditRecord | null, error?: unknown) => void;
}

interface Chain<L> {
  layer: L;
  waiting: Waiting[];
  /** The writes under way and to come; settled once every edit ahead is kept or taken back. */
  tail: Promise<void>;
  writing: boolean;
}

export class EditsAhead<L> {
  #chains = new Map<string, Chain<L>>();
  #store: AheadStore<L>;

  constructor(store: AheadStore<L>) {
    this.#store = store;
  }

  /** Settled once every edit ahead of layer `key` now is kept or taken back. */
  settled(key: string): Promise<unknown> {
    return this.#chains.get(key)?.tail ?? Promise.resolve();
  }

  /**
   * Applies `planned` to `edits` (layer `key`, named `layer` to the store) ahead of its record
   * and keeps `draft` after the edits before it, with those waiting beside it; answers its
   * record, or null when it was taken back.
   */
  keep(key: string, layer: L, edits: LayerEdits, planned: PlannedEdit, draft: EditDraft): Promise<EditRecord | null> {
    let chain = this.#chains.get(key);
    if (!chain) this.#chains.set(key, (chain = { layer, waiting: [], tail: Promise.resolve(), writing: false }));
    const on = edits.version;
    edits.ahead(planned);
    const answer = new Promise<EditRecord | null>((resolve, reject) => {
      chain.waiting.push({ edits, on, draft, done: (record, error) => (error === undefined ? resolve(record) : reject(error)) });
    });
    if (!chain.writing) {
      chain.writing = true;
      chain.tail = this.#write(chain);
    }
    return answer;
  }

  /** Writes what waits, a batch at a time, until nothing does. */
  async #write(chain: Chain<L>): Promise<void> {
    while (chain.waiting.length > 0) {
      const batch = chain.waiting.splice(0);
      let records: EditRecord[] | null = null;
      let error: unknown;
      try {
        records = await this.#store.append(chain.layer, batch[0]!.on, batch.map((w) => w.draft));
      } catch (err) {
        error = err;
      }
      if (!records) {
        // Taken back: this batch and every edit planned on it.
        batch[0]!.edits.retract();
        for (const w of batch) w.done(null, error);
        for (const w of chain.waiting.splice(0)) w.done(null);
        continue;
      }
      for (const [k, w] of batch.entries()) {
        // Each waiter is answered, even by a fault of the layer's own bookkeeping.
        try {
          w.edits.kept(records[k]!);
          this.#store.kept(chain.layer);
          w.done(records[k]!);
        } catch (err) {
          w.done(null, err);
        }
      }
    }
    chain.writing = false;
  }
}
