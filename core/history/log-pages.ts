/**
 * @module log-pages
 * Pages of rooms' logs as the log route answers them, made once for every reader of the same
 * page at the same newest seq: twenty readers of a 10,000-entry page read, rendered and
 * compressed megabytes each before, the event loop held for seconds. A page is read and rendered
 * a batch per turn (the disk and Redis homes read in turns; log-page-parts.ts renders), and its
 * ETag and compressed variants are made with it (cache/shared-answer.ts). A reader asks
 * the log for its newest seq first and shares only a page made at that seq, so it never misses
 * an entry written before it asked; a kept page goes after KEEP_MS, as entries past the log's
 * time-to-live must stop showing.
 */
import { sharedAnswer, type SharedAnswer } from '../cache/shared-answer.ts';
import { logPageParts } from './log-page-parts.ts';
import type { RoomLogStore } from './room-log-store.ts';

/** Pages one host keeps. */
const KEPT_PAGES = 8;
/** How long a kept page may be answered again. */
const KEEP_MS = 10_000;

interface KeptPage {
  lastSeq: number;
  made: number;
  answer: Promise<SharedAnswer>;
}

export class LogPages {
  #store: Pick<RoomLogStore, 'read' | 'lastSeq'>;
  #kept = new Map<string, KeptPage>();
  #now: () => number;

  constructor(store: Pick<RoomLogStore, 'read' | 'lastSeq'>, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
  }

  /** The page of `roomId`'s log after `since`, at most `limit` entries, as the route answers it. */
  async page(roomId: string, since: number, limit: number): Promise<SharedAnswer> {
    const lastSeq = await this.#store.lastSeq(roomId);
    const key = `${roomId}\u0000${since}\u0000${limit}`;
    let kept = this.#kept.get(key);
    if (!kept || kept.lastSeq !== lastSeq || this.#now() - kept.made > KEEP_MS) {
      const made: KeptPage = { lastSeq, made: this.#now(), answer: this.#make(roomId, since, limit) };
      // A failed read is not kept.
      made.answer.catch(() => this.#kept.get(key) === made && this.#kept.delete(key));
      kept = made;
    }
    this.#kept.delete(key);
    this.#kept.set(key, kept);
    while (this.#kept.size > KEPT_PAGES) this.#kept.delete(this.#kept.keys().next().value!);
    return kept.answer;
  }

  async #make(roomId: string, since: number, limit: number): Promise<SharedAnswer> {
    return sharedAnswer(await logPageParts(roomId, await this.#store.read(roomId, since, limit)));
  }
}
