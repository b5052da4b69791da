/**
 * @module layer-edits
 * One labels layer with its edits applied, in memory: the volume (chunked over the base),
 * its tables, and every edit kept with what it changed. An edit is first planned (checked and
 * its changes found, nothing written) and then applied once its record is kept, so a refused
 * write leaves the layer as it was; a host that reads the records back applies each the same
 * way and ends with the same voxels (every op is a function of the layer before it).
 *
 * Undo and redo work on the original edits (merge, split, paint, names): an undo writes back
 * what the edit found, a redo writes again what it wrote. Either is refused while a later
 * original edit still in effect changed one of its voxels or table entries (undo and redo edits
 * themselves count as neither: an undone edit and its undo cancel out), which is why edits
 * undo newest first. Asked to undo an undo, the host redoes its edit; to undo a redo, undoes it.
 *
 * A plain edit (merge, split, paint, names) may also be applied ahead of its record, while the
 * record is being kept: the next edit is planned on top of it meanwhile. Edits ahead get their
 * records in order (`kept`), and when one is not kept they are all taken back, newest first,
 * leaving the voxels, tables and the largest id ever held as they were. Readers see the kept
 * version only: the list, the records and the versions asked for stop at it.
 */
import { createHostError } from '../errors.ts';
import type { ChangedSegments, EditRecord, EditSummary, LabelEdit, ListedEdit, VoxelBox } from '../wire/edit-types.ts';
import type { LabelTables } from './label-tables.ts';
import type { LabelVolume } from './label-volume.ts';
import { mergeOp, namesOp, paintOp, type OpOutcome } from './plain-ops.ts';
import { splitOp } from './split-op.ts';
import { overlaps, reversed, type EditChanges } from './voxel-changes.ts';
import type { VersionVoxelsTask, WriteBack } from './version-voxels.ts';
import { regionTask, type BoxAsked, type VersionRegionTask } from './version-region.ts';

/** An edit applied: its record (absent while it is ahead), what it changed, and (an original) the undo or redo that last undid it. */
interface Applied {
  record?: EditRecord;
  summary: EditSummary;
  changes: EditChanges;
  /** The largest id the volume had ever held before it (what taking it back restores). */
  maxEverBefore: number;
  /** For an undo or redo: the original edit it acts on. */
  target?: number;
  undoneBy?: number;
}

/** An edit planned on the layer as it is: what applying it writes, and what it answers. */
export interface PlannedEdit extends EditSummary {
  edit: LabelEdit;
  changes: EditChanges;
}

/** The segments `changes` touch, as undo and redo answer them: those that came back are new. */
function segmentsOf(volume: LabelVolume, changes: EditChanges): ChangedSegments {
  const ids = new Set<number>();
  for (const v of changes.before) if (v !== 0) ids.add(v);
  const made = new Set<number>();
  for (const v of changes.after) if (v !== 0) (volume.count(v) === 0 ? made : ids).add(v);
  for (const t of changes.tables) if (t.id !== '0') ids.add(Number(t.id));
  return { changed: [...ids].filter((id) => !made.has(id)).sort((a, b) => a - b), new: [...made].sort((a, b) => a - b) };
}

export class LayerEdits {
  readonly volume: LabelVolume;
  readonly tables: LabelTables;
  #applied: Applied[] = [];
  #bySeq = new Map<number, Applied>();
  /** Edits with their records: the first `#kept` of `#applied` (the rest are ahead). */
  #kept = 0;

  constructor(volume: LabelVolume, tables: LabelTables) {
    this.volume = volume;
    this.tables = tables;
  }

  /** The layer's labels version as the next edit is planned on: 0 unedited, one more per edit (those ahead too). */
  get version(): number {
    return this.#applied.length;
  }

  /** The version whose edits all have their records: what readers are shown. */
  get keptVersion(): number {
    return this.#kept;
  }

  /** Checks `edit` on the layer as it is and finds what it changes; writes nothing. @throws the op's 400s, 404 and 409 of undo and redo */
  plan(edit: LabelEdit): PlannedEdit {
    const outcome = this.#outcome(edit);
    const { changes, segments } = outcome;
    return { edit, changes, segments, voxels: changes.index.length, box: changes.box };
  }

  #outcome(edit: LabelEdit): OpOutcome {
    switch (edit.op) {
      case 'merge':
        return mergeOp(this.volume, edit);
      case 'split':
        return splitOp(this.volume, edit);
      case 'paint':
        return paintOp(this.volume, edit);
      case 'names':
        return namesOp(this.volume, this.tables, edit);
      case 'undo':
      case 'redo':
        return this.#reversal(edit.op, edit.seq);
    }
  }

  /** The original edit an undo or redo of `seq` acts on, and whether it undoes it. */
  #targetOf(op: 'undo' | 'redo', seq: number): { original: Applied; undo: boolean } {
    const found = this.#bySeq.get(seq);
    if (!found) throw createHostError('SPC_ERR_EDIT_NOT_FOUND', String(seq));
    if (found.target === undefined) return { original: found, undo: op === 'undo' };
    // An undo or redo edit: undoing an undo redoes its edit, undoing a redo undoes it (and redoing either is refused).
    if (op === 'redo') throw createHostError('SPC_ERR_EDIT_NOT_UNDONE', String(seq), 'it is itself an undo or redo: undo it instead');
    return { original: this.#bySeq.get(found.target)!, undo: found.record!.edit.op === 'redo' };
  }

  #reversal(op: 'undo' | 'redo', seq: number): OpOutcome {
    const { original, undo } = this.#targetOf(op, seq);
    const at = original.record!.seq;
    if (undo && original.undoneBy !== undefined) throw createHostError('SPC_ERR_EDIT_UNDONE', String(at), String(original.undoneBy));
    if (!undo && original.undoneBy === undefined) throw createHostError('SPC_ERR_EDIT_NOT_UNDONE', String(at), 'it is in effect');
    const inEffect = (a: Applied) => a.target === undefined && a.undoneBy === undefined;
    const later = this.#applied.filter((a) => a.record!.seq > at && inEffect(a) && overlaps(a.changes, original.changes));
    if (later.length > 0) throw createHostError('SPC_ERR_EDIT_CONFLICT', String(at), later.map((a) => a.record!.seq).join(', '));
    const changes = undo ? reversed(original.changes) : original.changes;
    return { changes, segments: segmentsOf(this.volume, changes) };
  }

  /** Applies a planned edit under its kept record (the next version), with no edit ahead. */
  apply(planned: PlannedEdit, record: EditRecord): void {
    if (this.#kept !== this.version) throw new Error(`edit ${record.seq} applied with ${this.version - this.#kept} edits ahead`);
    if (record.version !== this.version + 1) throw new Error(`edit ${record.seq} is version ${record.version}, the layer is at ${this.version}`);
    const applied = this.#applyPlanned(planned);
    const { edit } = planned;
    if (edit.op === 'undo' || edit.op === 'redo') {
      const { original, undo } = this.#targetOf(edit.op, edit.seq);
      applied.target = original.record!.seq;
      // What the list shows: the original undone by this edit, or the undo it cancels undone by it.
      if (undo) original.undoneBy = record.seq;
      else {
        const undoer = original.undoneBy === undefined ? undefined : this.#bySeq.get(original.undoneBy);
        if (undoer) undoer.undoneBy = record.seq;
        delete original.undoneBy;
      }
    }
    this.#applied.push(applied);
    this.kept(record);
  }

  /** Applies a planned merge, split, paint or names edit ahead of its record (the next version). */
  ahead(planned: PlannedEdit): void {
    if (planned.edit.op === 'undo' || planned.edit.op === 'redo') throw new Error(`an ${planned.edit.op} is never applied ahead of its record`);
    this.#applied.push(this.#applyPlanned(planned));
  }

  /** The oldest edit ahead has its record now. */
  kept(record: EditRecord): void {
    const applied = this.#applied[this.#kept];
    if (!applied || record.version !== this.#kept + 1)
      throw new Error(`edit ${record.seq} is version ${record.version}, the layer kept ${this.#kept} of ${this.version}`);
    applied.record = record;
    this.#bySeq.set(record.seq, applied);
    this.#kept++;
  }

  /** Takes back every edit ahead, newest first; answers how many. */
  retract(): number {
    const ahead = this.version - this.#kept;
    for (let k = this.version - 1; k >= this.#kept; k--) {
      const { changes, maxEverBefore } = this.#applied[k]!;
      this.#write(changes, true);
      this.volume.maxEver = maxEverBefore;
    }
    this.#applied.length = this.#kept;
    return ahead;
  }

  /** An edit's changes written (`back`: what they found, else what they write), with its table entries. */
  #write(changes: EditChanges, back: boolean): void {
    this.volume.write(changes.index, back ? changes.before : changes.after);
    for (const t of changes.tables) {
      const value = back ? t.before : t.after;
      if (value === null) this.tables[t.table].delete(t.id);
      else this.tables[t.table].set(t.id, value);
    }
  }

  /** `planned` written, as an applied edit with no record yet. */
  #applyPlanned(planned: PlannedEdit): Applied {
    const { changes, segments, voxels, box } = planned;
    const maxEverBefore = this.volume.maxEver;
    this.#write(changes, false);
    return { summary: { segments, voxels, box }, changes, maxEverBefore };
  }

  /** The edits after log seq `since`, at most `limit`, oldest first, each with who undid it. */
  list(since: number, limit: number): ListedEdit[] {
    return this.#applied
      .slice(0, this.#kept)
      .filter((a) => a.record!.seq > since)
      .slice(0, limit)
      .map((a) => (a.undoneBy === undefined ? { ...a.record! } : { ...a.record!, undone_by: a.undoneBy }));
  }

  /** The record of the edit that made `version` (1 and up, kept). */
  recordAt(version: number): EditRecord | undefined {
    return version <= this.#kept ? this.#applied[version - 1]?.record : undefined;
  }

  /** The segments the kept edits after version `from` up to `to` changed or made, and the boxes they wrote. */
  changedSince(from: number, to: number): { changed: Set<number>; boxes: VoxelBox[] } {
    const records = this.#applied.slice(from, to).map((a) => a.record!);
    const changed = new Set(records.flatMap(({ segments }) => [...segments.changed, ...segments.new]));
    return { changed, boxes: records.flatMap(({ box }) => (box ? [box] : [])) };
  }

  /** What the edit that made `version` (1 and up, kept or ahead) changed. */
  summaryAt(version: number): EditSummary | undefined {
    return this.#applied[version - 1]?.summary;
  }

  /**
   * What version `version` (0: the base) is made of, taken now: the volume frozen, and what the
   * edits after it found where they wrote (the layer now with them written back is the version).
   */
  versionTask(version: number): VersionVoxelsTask {
    return { op: 'labelsVersion', volume: this.volume.freeze(), later: this.laterWrites(version) };
  }

  /** What the edits after `version` found where they wrote, oldest first: written back newest first, they give that version. */
  laterWrites(version: number): WriteBack[] {
    return this.#applied.slice(version).map(({ changes: { index, before, box } }) => ({ index, before, box }));
  }

  /**
   * What reading boxes (each `from`..`to`, z, y, x, `to` exclusive) of version `version` needs,
   * taken now (the chunks they meet frozen, the later edits that wrote in them), to be read on
   * a thread without making the version whole.
   */
  regionTask(version: number, boxes: readonly BoxAsked[]): VersionRegionTask {
    return regionTask(this.volume, this.laterWrites(version), boxes);
  }

  /** The tables at `version`. */
  tablesAt(version: number): LabelTables {
    const tables: LabelTables = { label_names: new Map(this.tables.label_names), label_colors: new Map(this.tables.label_colors) };
    for (let k = this.#applied.length - 1; k >= version; k--)
      for (const t of this.#applied[k]!.changes.tables) {
        if (t.before === null) tables[t.table].delete(t.id);
        else tables[t.table].set(t.id, t.before);
      }
    return tables;
  }
}
