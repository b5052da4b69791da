/**
 * @module session-layout
 * What a session file (`<id>.vitrine`, a ustar archive) holds and where: `vitrine.json` first
 * (what it is, its format version, the snapshot's id and when it was taken), `snapshot.json`
 * (the document, the very bytes its id hashes), then `results/<result id>` for each result a
 * layer shows: the result's frame header as one line of JSON, a newline, and its payload,
 * so the SHA-256 of the file without that newline is the id it is named by. Those ids are
 * the blob ids the document names; a result is checked against its name on the way in.
 * Then `specimens/<n>` for each published specimen a layer (or an input of its function)
 * names: what its publisher said of it as one line of JSON (its `id`, `file_name`, the `sha`
 * of its file, and the fields a publish takes), a newline, and the file itself, so a host
 * taking the session in publishes the very same specimen. A file without them (written before
 * they were carried) reads as before, and a host that knows nothing of them passes them by.
 */

export const SESSION_FORMAT = 'vitrine-session';
export const SESSION_VERSION = 1;
export const MANIFEST_NAME = 'vitrine.json';
export const DOCUMENT_NAME = 'snapshot.json';
export const RESULTS_DIR = 'results/';
export const SPECIMENS_DIR = 'specimens/';
/** The media type a session file is sent and taken as. */
export const SESSION_MEDIA_TYPE = 'application/x-tar';
/** The largest session file a host takes in (1 GiB); it is written to disk as it arrives and checked there. */
export const MAX_SESSION_BYTES = 1024 * 1024 * 1024;

export interface SessionManifest {
  format: typeof SESSION_FORMAT;
  version: number;
  snapshot: string;
  /** When the snapshot was first taken, milliseconds since the epoch. */
  created: number;
}

/** A published file as a session carries it: its specimen, what its publisher said of it, and its bytes. */
export interface CarriedSpecimen {
  id: string;
  /** Publish fields (`display_name`, `tags`, `spacing`, `room`, `source`, ...) with `id`, `file_name` and `sha`. */
  header: Record<string, unknown>;
  bytes: Uint8Array;
}

/** A carried published file as it lies in a session file taken in: its bytes are read from there when it is published. */
export interface SessionSpecimenFile {
  id: string;
  header: Record<string, unknown>;
  sha: string;
  file: string;
  offset: number;
  length: number;
}

/**
 * The ids of the results a snapshot document's layers name (each once), with the base result of
 * each layer whose edits it carries (they are made again over it where it is restored).
 */
export function namedResults(document: {
  scene?: { layers?: { id?: string; result?: { result_id?: string; blob_id?: string; provenance?: { base_result?: string } } }[] };
  edits?: { layer: string }[];
}): string[] {
  const ids = new Set<string>();
  const edited = new Set((document.edits ?? []).map((edit) => edit.layer));
  for (const layer of document.scene?.layers ?? []) {
    const id = layer.result?.blob_id ?? layer.result?.result_id;
    if (id) ids.add(id);
    const base = layer.result?.provenance?.base_result;
    if (base && layer.id !== undefined && edited.has(layer.id)) ids.add(base);
  }
  return [...ids];
}
