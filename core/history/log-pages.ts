/**
 * @module log-pages
 * Pages of rooms' logs as the log route answers them (`{room_id, entries, next_since, more,
 * last_seq}`), made once for every reader of the same page at the same newest seq: twenty
 * readers of a 10,000-entry page read, rendered and compressed megabytes each before, the event
 * loop held for seconds. A page is read and rendered a batch per turn (the disk and Redis homes
 * read in turns; twenty readers rendering theirs in one turn each held every other request for
 * over a second), and its ETag and compressed variants are made with it (cache/shared-answer.ts).
 * A reader asks the log for its newest seq first and shares only a page made at that seq, so it
 * never misses an entry written before it asked; a kept page goes after KEEP_MS, as entries past
 * the log's time-to-live must stop showing.
 */
import { sharedAnswer, type SharedAnswer } from '../cache/shared-answer.ts';
import { inTurns } from '../memory/turn-batches.ts';
import type { RoomLogStore } from './room-log-store.ts';

/** Pages one host keeps. */
const KEPT_PAGES = 8;
/** How long a kept page may be answered again. */
const KEEP_MS = 10_000;
/** Entries rendered between two turns of the event loop (an entry can carry a scene or a few marks). */
const BATCH = 200;

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

  /** The page as JSON, a part per batch of entries: the same text `JSON.stringify({room_id, ...page})` makes. */
  async #make(roomId: string, since: number, limit: number): Promise<SharedAnswer> {
    const page = await this.#store.read(roomId, since, limit);
    const parts = await inTurns(page.entries, BATCH, (batch, at) => Buffer.from((at > 0 ? ',' : '') + batch.map((entry) => JSON.stringify(entry)).join(',')));
    const tail = `],"next_since":${page.next_since},"more":${page.more},"last_seq":${page.last_seq}}`;
    return sharedAnswer([Buffer.from(`{"room_id":${JSON.stringify(roomId)},"entries":[`), ...parts, Buffer.from(tail)]);
  }
}
