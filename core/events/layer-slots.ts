/**
 * @module layer-slots
 * A layer of a room's scene keeps its result in a cache slot of its own, beside the room's one
 * entry: a "room" of the result services whose id no request can name. Every route and tool
 * refuses a room id longer than MAX_ROOM_ID_LENGTH, and a slot id is always longer, so the
 * two never meet. Everything the result services do per room (single flights, the cache entry,
 * its byte budget, a Redis service's pointers) then works per layer unchanged, and the events
 * of a slot reach its room's streams with a `layer` member (roomEventOf).
 */
import type { HostEvent } from './event-hub.ts';

/** The longest room id a request may name (the routes' and tools' schemas enforce it). */
export const MAX_ROOM_ID_LENGTH = 256;

const SEP = '\u0000';

/**
 * The slot of layer `layerId` in room `roomId`: `<layer> NUL <room length> NUL <room>`, padded
 * with NULs past the longest nameable room id. Layer ids never hold a NUL; the length makes the
 * room readable back whatever characters it holds.
 */
export function layerSlot(roomId: string, layerId: string): string {
  const id = `${layerId}${SEP}${roomId.length}${SEP}${roomId}${SEP}`;
  return id.length > MAX_ROOM_ID_LENGTH ? id : id.padEnd(MAX_ROOM_ID_LENGTH + 1, SEP);
}

/** The layer id of a room's readers' slot: no layer takes it (a layer id is letters, digits, `_`, `.` and `-`). */
const READERS = '#readers';

/**
 * The slot where those who may only read room `roomId` compute what they ask of it that it does
 * not show: they are answered, and the room's entry, its scene and its streams stay as they were.
 * A result it holds is the room's as a layer's is (read by those who may read the room).
 */
export function readersSlot(roomId: string): string {
  return layerSlot(roomId, READERS);
}

/** The room and layer a slot id stands for; null for an ordinary room id. */
export function slotOwner(id: string): { room: string; layer: string } | null {
  if (id.length <= MAX_ROOM_ID_LENGTH) return null;
  const first = id.indexOf(SEP);
  const second = first < 0 ? -1 : id.indexOf(SEP, first + 1);
  if (first < 1 || second < 0) return null;
  const length = Number(id.slice(first + 1, second));
  if (!Number.isInteger(length) || length < 0) return null;
  const room = id.slice(second + 1, second + 1 + length);
  if (room.length !== length || id.charAt(second + 1 + length) !== SEP) return null;
  return { room, layer: id.slice(0, first) };
}

/**
 * Where an event a result service published for `roomId` goes: the room's own streams, and for
 * a layer's slot its room's streams with the layer named (`computing`, `result` and `failed`
 * then say which layer they are for); nowhere for the readers' slot (a read tells no one).
 */
export function roomEventOf(roomId: string, event: HostEvent): { room: string; event: HostEvent } | null {
  const owner = slotOwner(roomId);
  if (!owner) return { room: roomId, event };
  if (owner.layer === READERS) return null;
  const data = typeof event.data === 'object' && event.data !== null ? { ...event.data, layer: owner.layer } : { layer: owner.layer };
  return { room: owner.room, event: { ...event, data } };
}
