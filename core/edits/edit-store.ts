/**
 * @module edit-store
 * Where a labels layer's edits are kept, one interface for every home side by side: a host's
 * memory (memory-edit-store.ts), a lone host's data folder (disk-edit-store.ts, acknowledged
 * means on disk) and a Redis service (redis-edit-store.ts, one order for every host), run by
 * one conformance suite. An edit is kept as its room log entry (kind `labels.edit`), written
 * in the same write as the entry itself: the layer's next version is kept only while the
 * layer is still at the version the edit was planned on, so two writers never keep two edits
 * at one version, and every follower of the room gets the `labels` event once it is kept.
 * Several edits planned one on another are kept by one append, all of them or none, so a
 * writer with edits waiting keeps them in one write (one flush, one round trip) and never
 * keeps a later one without those it was planned on.
 * The records are what a host rebuilds the layer from: the ops applied again in order.
 */
import { currentActor } from '../history/request-actor.ts';
import type { LogChange } from '../history/room-log-store.ts';
import { EDIT_LOG_TYPE, type EditRecord, type EditSummary, type LabelEdit } from '../wire/edit-types.ts';

/** An edit as a writer hands it over: the edit and what it changed, and who made it (whoever appends it, when absent). */
export interface EditDraft extends EditSummary {
  edit: LabelEdit;
  by?: string;
}

export interface EditStore {
  /**
   * Keeps `drafts` as versions `expected + 1`, `expected + 2`, ... of the layer, each with its
   * log entry, in one write; answers their records, or null (nothing kept) when the layer is no
   * longer at `expected`.
   */
  append(roomId: string, layerId: string, expected: number, drafts: readonly EditDraft[]): Promise<EditRecord[] | null>;
  /** The layer's edits after `version`, in version order. */
  after(roomId: string, layerId: string, version: number): Promise<EditRecord[]>;
  close(): void;
}

/** The log change an edit is kept as: the edit, the layer, its version and what it changed, by whoever made it. */
export function editChange(layerId: string, version: number, draft: EditDraft): LogChange {
  const { edit, segments, voxels, box } = draft;
  return { type: EDIT_LOG_TYPE, by: draft.by ?? currentActor(), change: { layer: layerId, version, edit, segments, voxels, box } };
}
