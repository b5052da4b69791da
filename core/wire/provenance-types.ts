/**
 * @module provenance-types
 * What made a computed result, as the host says it in a layer's result, a snapshot, a room's
 * provenance list and (shortened) the `Vitrine-Provenance` header.
 */

/**
 * The plugin, its version and bundle id, the function, the parameters with defaults filled in,
 * and the host's own version. `plugin`, `version` and `bundle` are null for a function
 * registered in code or relayed from a worker.
 */
export interface Provenance {
  plugin: string | null;
  version: string | null;
  bundle: string | null;
  function: string;
  params: Record<string, unknown>;
  host: string;
}

/** `GET /api/rooms/{room}/provenance`: the room's entry's and every layer's. */
export interface RoomProvenance {
  room: string;
  entry: Provenance | null;
  /** `stale`: the layer shows this result, though its source no longer gives it (why). */
  layers: { id: string; provenance: Provenance | null; stale?: { code: string; detail: string } }[];
}
