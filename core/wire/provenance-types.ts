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

/**
 * What published an array a layer shows (`PUT /api/specimens/{id}`, or a notebook's
 * `room.add(array)`): the specimen and its file's SHA-256, the client that sent it (its
 * User-Agent, `vitrine-python/0.1.0`), the user the host took the request for, when (ISO 8601),
 * and what the publisher says made it (`source`, e.g. `segment.py`), or null.
 */
export interface PublishedOrigin {
  specimen: string;
  sha256: string;
  client: string | null;
  user: string;
  published_at: string;
  source: string | null;
}

/** A published array's provenance: what published it, and the host's version. */
export interface PublishedProvenance {
  published: PublishedOrigin;
  host: string;
}

/**
 * Which level of which remote image a result was read from (an image read in place): the
 * remote's name, the image's path inside it, the level's index in its multiscales and its
 * dataset path, and the shape read.
 */
export interface RemoteLevelOrigin {
  name: string;
  path: string;
  level: number;
  level_path: string;
  shape: number[];
}

/**
 * A layer showing a remote image: the level read, and the version (ETag, else Last-Modified)
 * the remote gave each key read for it, by its path inside the remote; null for a key the
 * remote did not have (a missing chunk, read as the fill value), '' for one it gave no version.
 */
export interface RemoteProvenance {
  remote: RemoteLevelOrigin & { versions: Record<string, string | null> };
  host: string;
}

/**
 * What an edited labels layer's version adds to its base result's provenance: the base result's
 * id and the edits applied over it, by their room log seq, oldest first (an undo is an edit too).
 * The version is how many there are.
 */
export interface EditedFrom {
  base_result: string;
  edits: number[];
}

/**
 * What made a layer's result: a computation, or a publication; for a version of an edited layer,
 * with its base and edits (only those, over a base nothing is known to have made: a file).
 */
export type LayerProvenance = ((Provenance | PublishedProvenance | RemoteProvenance) & Partial<EditedFrom>) | EditedFrom;

/** The remote image a layer's result was read from, or null for any other provenance. */
export function remoteProvenance(provenance: LayerProvenance | null | undefined): RemoteProvenance | null {
  return provenance && 'remote' in provenance && typeof provenance.remote === 'object' && provenance.remote !== null ? (provenance as RemoteProvenance) : null;
}

/** The base and edits of an edited layer's version; null for any other result's provenance. */
export function editedFrom(provenance: LayerProvenance | null | undefined): EditedFrom | null {
  if (!provenance || provenance.base_result === undefined || provenance.edits === undefined) return null;
  return { base_result: provenance.base_result, edits: provenance.edits };
}

/** The computation's provenance, or null for a published array's (or none). */
export function computedProvenance(provenance: LayerProvenance | null | undefined): Provenance | null {
  return provenance && 'function' in provenance ? provenance : null;
}

/** `GET /api/rooms/{room}/provenance`: the room's entry's and every layer's. */
export interface RoomProvenance {
  room: string;
  entry: LayerProvenance | null;
  /** `stale`: the layer shows this result, though its source no longer gives it (why). */
  layers: { id: string; provenance: LayerProvenance | null; stale?: { code: string; detail: string } }[];
}
