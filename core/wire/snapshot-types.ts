/**
 * @module snapshot-types
 * A snapshot as the host and its clients speak it: the document whose bytes its id hashes, and
 * the snapshot a client holds with its id and when it was taken.
 */
import type { TranscriptEntry } from './agent-types.ts';
import type { RoomView } from './room-types.ts';
import type { Annotation, SceneLayer } from './scene-types.ts';
import type { EditRecord } from './edit-types.ts';

/**
 * `GET /api/snapshots/{id}`: a room as it was, each layer's result by blob id (its `data_url` is
 * the blob's). The body is exactly the bytes whose SHA-256 is the id (compact JSON, keys
 * sorted), so whoever holds it can check it; the id and the time it was taken travel in headers.
 */
export interface SnapshotDocument {
  /** The scene as it was (a snapshot is of no version). */
  scene: { layers: SceneLayer[]; active: string | null };
  view: RoomView;
  annotations: Annotation[];
  /** The room's conversation with its agent when it was taken (absent: it had none). */
  conversation?: TranscriptEntry[];
  /**
   * The edits of its edited labels layers (their `labels.edit` log entries, oldest first, up to
   * the version each layer shows), whose base result it carries too: restored into a room with
   * no edits of its own, they are made there again in order, so its list and undo go on.
   */
  edits?: CarriedEdit[];
}

/** An edit as a snapshot carries it. */
export type CarriedEdit = Pick<EditRecord, 'layer' | 'seq' | 'ts' | 'by' | 'version' | 'edit'>;

/** A snapshot as the client gives it: its document, with the id (`ETag`) and time taken (`X-Snapshot-Created`) of the answer. */
export interface Snapshot extends SnapshotDocument {
  id: string;
  /** Milliseconds since the epoch when it was first taken. */
  created: number;
}

/** The header giving when a snapshot was first taken, in milliseconds since the epoch (`Last-Modified` says it to the second). */
export const SNAPSHOT_CREATED_HEADER = 'x-snapshot-created';
