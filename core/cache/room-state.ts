/**
 * @module room-state
 * What a room shows: the entry its cache holds, as the room's `state` and `result` events
 * carry it. Kept by the room cache beside each entry, written by both result services.
 */

/** What a room shows: the entry its cache holds (the `state` and `result` events' data). */
export interface RoomState {
  function_name: string;
  /** The specimen the entry was computed for; null when it came from /invoke. */
  specimen_id: string | null;
  /** Parameter values with defaults filled. */
  params: Record<string, unknown>;
  type: string;
  /** The content hash of the entry's result (results/result-id.ts), once the entry holds one. */
  result_id?: string;
  /** When the entry became the room's (ms since the epoch), where `roomState` knows it; never sent to clients. */
  since?: number;
  /** The blob (`/api/blobs/{blob_id}`) of the entry's bytes in their default form: the result id. */
  blob_id?: string;
}
