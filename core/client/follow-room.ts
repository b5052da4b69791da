/**
 * @module follow-room
 * followRoom: one room's events (`GET /api/rooms/{room_id}/events`) as an async iterator:
 * `state` first (the room's entry, or null), then `computing`, `result`, `view` and `annotation` as they happen,
 * until the caller stops. A dropped connection reconnects and yields a fresh `state`, which
 * is all a room subscriber needs to catch up (the stream carries state, not history).
 *
 * @example
 * for await (const e of client.followRoom('lab-1', { signal })) {
 *   if (e.event === 'computing') showSpinner(e.data.job_id);
 *   else if (e.data) show(e.data.function_name, e.data.params); // state or result
 * }
 */
import { followEvents, type FollowOptions } from './follow-events.ts';
import type { Transport } from './transport.ts';
import type { RoomEvent } from './wire-types.ts';

const ROOM_EVENTS = new Set<string>(['state', 'computing', 'result', 'view', 'annotation']);

/**
 * Yields the room's events until the caller leaves the loop or aborts.
 * @throws InvalidRequestError for a refused room id; the last failure once `maxRetries`
 * connections in a row failed; an `AbortError` when `options.signal` aborts.
 */
export async function* followRoom(transport: Transport, room: string, options: FollowOptions = {}): AsyncGenerator<RoomEvent, never, undefined> {
  const route = { path: `/api/rooms/${encodeURIComponent(room)}/events` };
  for await (const message of followEvents(transport, route, options)) {
    // Events a newer host may add are skipped, not passed on untyped.
    if (ROOM_EVENTS.has(message.event)) yield { event: message.event, data: JSON.parse(message.data) } as RoomEvent;
  }
  throw new Error('unreachable: followEvents never ends by itself');
}
