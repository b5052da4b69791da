/**
 * @module follow-room
 * followRoom: one room's events (`GET /api/rooms/{room_id}/events`) as an async iterator:
 * `state` first (the room's entry, or null) and `view`, then `computing`, `result`, `failed`
 * and `view` as they happen (with `events: 'all'`, also `scene` after `view` and on each
 * change, and `annotation`), until the caller stops. A dropped connection reconnects and yields a fresh `state`, which
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
import type { RoomEvent, RoomPeer } from '../wire/room-types.ts';

/** The events of a room's entry and view: what a follower gets unless it asks for every event. */
const ENTRY_EVENTS = new Set<string>(['state', 'computing', 'result', 'failed', 'view']);
/** Every room event: a scene's, annotations', a snapshot taken, the conversation, labels edits, who comes and goes (to a named follower). */
const ALL_EVENTS = new Set<string>([...ENTRY_EVENTS, 'scene', 'annotation', 'snapshot', 'presence', 'replay', 'conversation', 'labels']);

/** Options of `followRoom`. */
export interface FollowRoomOptions extends FollowOptions {
  /**
   * `entry`: the room's entry and view (`state`, `computing`, `result`, `failed`, `view`, none
   * of them about a scene's other layers; those of the active layer, which is the entry, name
   * it in `layer`), as followers written before scenes expect; `all`:
   * every event, `scene` and `annotation` too, and the layers' `computing`, `result` and
   * `failed` (their `layer` names which).
   * @defaultValue 'entry'
   */
  events?: 'entry' | 'all';
  /** How this follower appears in the room's presence (its name when anonymous, its kind); it then gets `presence` events too. */
  as?: { name?: string; kind?: RoomPeer['kind'] };
}

/**
 * Yields the room's events until the caller leaves the loop or aborts.
 * @throws InvalidRequestError for a refused room id; the last failure once `maxRetries`
 * connections in a row failed; an `AbortError` when `options.signal` aborts.
 */
export async function* followRoom(transport: Transport, room: string, options: FollowRoomOptions = {}): AsyncGenerator<RoomEvent, never, undefined> {
  const named = options.as ? new URLSearchParams(Object.entries(options.as).filter(([, v]) => v !== undefined) as [string, string][]).toString() : '';
  const route = { path: `/api/rooms/${encodeURIComponent(room)}/events${named ? `?${named}` : ''}` };
  const all = options.events === 'all';
  // The scene's active layer: its computations are the room's entry changing (they name it).
  let active: string | null = null;
  for await (const message of followEvents(transport, route, options)) {
    // Events a newer host may add are skipped, not passed on untyped; a scene is read for its active layer.
    const wanted = (all ? ALL_EVENTS : ENTRY_EVENTS).has(message.event);
    if (!wanted && message.event !== 'scene') continue;
    const data = JSON.parse(message.data) as { active?: string | null; layer?: unknown } | null;
    if (message.event === 'scene') active = data?.active ?? null;
    // Another layer's own computation is not the room's entry changing.
    if (!wanted || (!all && data?.layer !== undefined && data.layer !== active)) continue;
    yield { event: message.event, data } as RoomEvent;
  }
  throw new Error('unreachable: followEvents never ends by itself');
}
