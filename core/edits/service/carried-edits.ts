/**
 * @module carried-edits
 * Edited labels in snapshots and session files: what a snapshot records of an edited layer
 * (its current version, with the base result and the edits up to it, which a session file
 * carries to another host), and a restored snapshot's carried edits made again in a room.
 */
import type { ResultIds } from '../../serving/result-ids.ts';
import type { StoredResult } from '../../results/stored-result.ts';
import type { LayerProvenance } from '../../wire/provenance-types.ts';
import type { CarriedEdit } from '../../wire/snapshot-types.ts';
import type { LabelsEditing } from './labels-editing.ts';

/** An edited layer's current version as a snapshot records it, with what it carries. */
export interface EditedVersion {
  result: StoredResult;
  resultId: string;
  /** The hash of its bytes, which its id is not: what stores keep it under. */
  blobId: string;
  provenance?: LayerProvenance;
  base: StoredResult;
  edits: CarriedEdit[];
}

export class CarriedEdits {
  constructor(
    readonly editing: LabelsEditing,
    readonly resultIds: Pick<ResultIds, 'frameHash'>,
    readonly warn: (message: string, err: unknown) => void,
  ) {}

  /** Layer `layerId`'s current version with its base and edits; null for a layer with no edit kept (what its source gives is what it shows). */
  async editedVersion(roomId: string, layerId: string): Promise<EditedVersion | null> {
    const { editing } = this;
    if (!(await editing.hasEdits(roomId, layerId))) return null;
    const at = await editing.labelsAt(roomId, layerId);
    if (at.version === 0) return null;
    const [blobId, provenance, base] = await Promise.all([
      this.resultIds.frameHash(at.result),
      editing.provenanceAt(roomId, layerId, at),
      editing.labelsAt(roomId, layerId, 0),
    ]);
    const edits = at.records.map(({ layer, seq, ts, by, version, edit }) => ({ layer, seq, ts, by, version, edit }));
    return { result: at.result, resultId: at.id, blobId, ...(provenance ? { provenance } : {}), base: base.result, edits };
  }

  /**
   * A snapshot's carried edits made again in room `roomId`, in order, as its restorer's edits,
   * for each layer that has no edit of its own there (a room restored into its own past keeps
   * its list). An undo or redo names the edit it acts on by its new seq. A carried edit refused
   * here (a file can say anything) ends that layer's replay, said in the log. The restored scene
   * names the carried version already: no step on the way is named.
   */
  async replay(roomId: string, carried: readonly CarriedEdit[]): Promise<void> {
    const { editing } = this;
    const byLayer = new Map<string, CarriedEdit[]>();
    for (const edit of carried) byLayer.set(edit.layer, [...(byLayer.get(edit.layer) ?? []), edit]);
    for (const [layerId, edits] of byLayer) {
      if (await editing.hasEdits(roomId, layerId)) continue;
      const seqs = new Map<number, number>();
      const again = async (): Promise<void> => {
        for (const { seq, edit } of edits) {
          const answer =
            edit.op === 'undo' || edit.op === 'redo'
              ? await editing.reverse(roomId, layerId, edit.op, seqs.get(edit.seq) ?? -1)
              : await editing.edit(roomId, layerId, edit);
          seqs.set(seq, answer.seq);
        }
      };
      await editing
        .unnamed(roomId, layerId, again, () => seqs.size > 0)
        .catch((error: unknown) => this.warn(`the edits a snapshot carries of layer '${layerId}' were made again in room '${roomId}' only in part`, error));
    }
  }
}
