/**
 * @module log-page-parts
 * A page of a room's log as the bytes the log route answers (`{room_id, entries, next_since,
 * more, last_seq}`), its entries rendered a batch per turn of the event loop: a page of 10,000
 * entries is megabytes of JSON, and twenty readers rendering theirs at once in one turn each
 * held every other request for over a second.
 */
import { inTurns } from '../memory/turn-batches.ts';
import type { LogPage } from './room-log-store.ts';

/** Entries rendered between two turns of the event loop (an entry can carry a scene or a few marks). */
const BATCH = 200;

/** The page as JSON, a part per batch of entries: the same text `JSON.stringify({room_id, ...page})` makes. */
export async function logPageParts(roomId: string, page: LogPage): Promise<Buffer[]> {
  const parts = await inTurns(page.entries, BATCH, (batch, at) => Buffer.from((at > 0 ? ',' : '') + batch.map((entry) => JSON.stringify(entry)).join(',')));
  const tail = `],"next_since":${page.next_since},"more":${page.more},"last_seq":${page.last_seq}}`;
  return [Buffer.from(`{"room_id":${JSON.stringify(roomId)},"entries":[`), ...parts, Buffer.from(tail)];
}
