/**
 * @module folder-reads
 * Results a lone host reads back from its data folder by id (a snapshot's pin, a layer's kept
 * result after a restart), held in memory once read, within the host's result budget (which
 * may drop them first): the folder is read once per id rather than once per request, and
 * requests that ask for one id at the same moment share its read. A copy stays at most
 * `keepMs`; past that the next request reads the folder again, so a blob gone from the folder
 * (its snapshot deleted, its kept record dropped) stops being answered soon after.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { LocalBlobCopies } from './local-blob-copies.ts';

/** How long a copy read from the folder answers before the folder is asked again. */
export const FOLDER_COPY_MS = 60_000;

export class FolderReads {
  #read: (id: string) => Promise<StoredResult | null>;
  #copies: LocalBlobCopies;
  #keepMs: number;

  constructor(read: (id: string) => Promise<StoredResult | null>, budget: ResultBudget<StoredResult>, keepMs = FOLDER_COPY_MS) {
    this.#read = read;
    this.#copies = new LocalBlobCopies(budget, keepMs);
    this.#keepMs = keepMs;
  }

  /** The result with id `id`: the copy held, else read from the folder (and held); null when the folder has none. */
  find(id: string): Promise<StoredResult | null> {
    return this.#copies.useOrRead(id, async () => {
      const result = await this.#read(id);
      if (result) this.#copies.keep(id, result, this.#keepMs);
      return result;
    });
  }

  /** Lets every copy go. */
  close(): void {
    this.#copies.close();
  }
}
