/**
 * @module channels
 * The names of the EventHub's channels, in one place: the host's own events, each room's and
 * each job's. Publishers (the result services, the job stores, a Redis service relaying what
 * other hosts publish) and the streams that subscribe agree on them here.
 */

/** The channel of host-wide events (plugin reloads, build errors under `vitrine dev`). */
export const HOST_CHANNEL = 'host';

/** The channel of one room's `computing` and `result` events. */
export function roomChannel(roomId: string): string {
  return `room:${roomId}`;
}

/** What every room channel's name starts with. */
export const ROOM_CHANNEL_PREFIX = roomChannel('');

/**
 * Published on a room channel when the host may have missed some of the room's events (its
 * Redis subscription was lost and is back): the room's streams close, and their clients'
 * reconnections get the current `state`.
 */
export const ROOM_RESYNC = 'resync';

/** Room event (inside the hosts only) carrying a room's new access: its streams re-check who may still read. */
export const ROOM_ACCESS = 'access';

/** The channel nudged when a job may have changed. */
export function jobChannel(id: string): string {
  return `job:${id}`;
}
