/**
 * @module edit-store
 * Where a labels layer's edits are kept, one interface for every home side by side: a host's
 * memory (memory-edit-store.ts), a lone host's data folder (disk-edit-store.ts, acknowledged
 * means on disk) and a Redis service (redis-edit-store.ts, one order for every host), run by
 * one conformance suite. An edit is kept as its room log entry (kind `labels.edit`), written
 * in the same write as the entry itself: the layer's next version is kept only while the
 * layer is still at the version the edit was planned on, so two writers never keep two edits
 * at one version, and every follower of the room gets the `labels` event once it is kept.
 * The records are what a host rebuilds the layer from: the ops applied again in order.
 */
import { currentActor } from '../history/request-actor.ts';
import type { LogChange } from '../history/room-log-store.ts';
import { EDIT_LOG_TYPE, type EditRecord, type EditSummary, type LabelEdit } from '../wire/edit-types.ts';

/** An edit as a writer hands it over: the edit and what it changed. */
export interface EditDraft extends EditSummary {
  edit: LabelEdit;
}

export interface EditStore {
  /**
   * Keeps `draft` as version `expected + 1` of the layer, with its log entry in one write;
   * answers its record, or null (nothing kept) when the layer is no longer at `expected`.
   */
  append(roomId: string, layerId: string, expected: number, draft: EditDraft): Promise<EditRecord | null>;
  /** The layer's edits after `version`, in version order. */
  after(roomId: string, layerId: string, version: number): Promise<EditRecord[]>;
  close(): void;
}

/** The log change an edit is kept as: the edit, the layer, its version and what it changed, by whoever made it. */
export function editChange(layerId: string, version: number, draft: EditDraft): LogChange {
  const { edit, segments, voxels, box } = draft;
  return { type: EDIT_LOG_TYPE, by: currentActor(), change: { layer: layerId, version, edit, segments, voxels, box } };
}
