/**
 * @module room-state
 * What a room shows: the entry its cache holds, as the room's `state` and `result` events
 * carry it. Kept by the room cache beside each entry, written by both result services.
 */
import type { RoomEntry } from '../wire/room-types.ts';

/** A room's entry as the wire has it, always a function's, and when it came (kept on the host). */
export interface RoomState extends Omit<RoomEntry, 'function_name'> {
  function_name: string;
  /** When the entry became the room's (ms since the epoch), where `roomState` knows it; never sent to clients. */
  since?: number;
}
