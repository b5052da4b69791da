/**
 * @module edit-types
 * The shapes of edits on a labels layer: what a client sends (one op), what the host keeps of
 * each (the log entry it is: seq, by, the edit, the layer's version after it, what it
 * changed), and what it answers and sends to followers.
 */

/** A voxel of level 0: z, y, x. */
export type Voxel = [number, number, number];

/** A box of voxels: its first z, y, x and its ends (exclusive). */
export interface VoxelBox {
  from: Voxel;
  to: Voxel;
}

export interface MergeEdit {
  op: 'merge';
  segments: number[];
}

export interface SplitEdit {
  op: 'split';
  segment: number;
  seeds: Voxel[][];
}

export interface PaintEdit {
  op: 'paint';
  label: number;
  center?: Voxel;
  radius?: number;
  voxels?: Voxel[];
  only?: number;
}

/** `null` takes an entry out of its table. */
export interface NamesEdit {
  op: 'names';
  label_names?: Record<string, string | null>;
  label_colors?: Record<string, string | null>;
}

/** The reverse of edit `seq` (undo), or edit `seq` made again after its undo (redo). */
export interface UndoEdit {
  op: 'undo' | 'redo';
  seq: number;
}

/** One edit as a client sends it. */
export type ClientEdit = MergeEdit | SplitEdit | PaintEdit | NamesEdit;
/** One edit as the host keeps it. */
export type LabelEdit = ClientEdit | UndoEdit;

/** The segments an edit changed, and those it made (ids the layer did not hold before it). */
export interface ChangedSegments {
  changed: number[];
  new: number[];
}

/** What an edit did, as it is answered, logged and sent. */
export interface EditSummary {
  segments: ChangedSegments;
  /** Voxels it changed. */
  voxels: number;
  /** The box of the voxels it changed; null when it changed none. */
  box: VoxelBox | null;
}

/** One kept edit: its entry in the room log (kind `labels.edit`) and the layer's version after it. */
export interface EditRecord extends EditSummary {
  seq: number;
  ts: number;
  by: string;
  layer: string;
  version: number;
  edit: LabelEdit;
}

/** An edit as `GET .../edits` lists it: with the seq of the edit that undid it, while one has. */
export interface ListedEdit extends EditRecord {
  undone_by?: number;
}

/** The 201 of an edit. */
export interface EditAnswer extends EditSummary {
  seq: number;
  version: number;
  by: string;
}

/** The `labels` event a room's followers get per edit. */
export interface LabelsEvent extends EditSummary {
  layer: string;
  edit: LabelEdit;
  seq: number;
  version: number;
  by: string;
}

/** The room event of an edit. */
export const LABELS_EVENT = 'labels';
/** The log entry kind of an edit. */
export const EDIT_LOG_TYPE = 'labels.edit';
