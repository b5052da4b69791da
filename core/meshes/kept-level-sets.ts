/**
 * @module kept-level-sets
 * Level sets kept where results are kept, so that a host started again, or another host of a
 * service, serves a surface's levels without building them again. A set is named by what
 * determines it (the result's id, the segment and the format of sets: `levelSetName`), and
 * stored by its content (its packed bytes as a one-dimensional uint8 volume, `keptForm`,
 * whose result id is worked out on the thread that built it). A home may lose a set at any
 * time (evicted, expired): a reader takes that as a miss and the set is built again.
 *
 * Homes side by side: memory-kept-level-sets.ts (one process; keeps the interface honest),
 * disk-kept-level-sets.ts (a lone host's data folder, among its kept results) and
 * redis-kept-level-sets.ts (a service's blob store, Redis or S3, named in Redis). One
 * conformance suite runs over all of them.
 */
import { createHash } from 'node:crypto';
import { rememberResultId } from '../results/result-id.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { LEVEL_SET_FORMAT, unpackLevelSet, type SegmentLods } from './level-set.ts';

export interface KeptLevelSets {
  /** Keeps `lods` under `name`; `keptId` is the result id of its kept form. */
  keep(name: string, lods: SegmentLods, keptId: string): Promise<void>;
  /** The set kept under `name`, or null (never kept, gone since, or not a whole set). */
  find(name: string): Promise<SegmentLods | null>;
}

/** The name of the level set of `segment` of the result `resultId`, in this format of sets. */
export function levelSetName(resultId: string, segment: number): string {
  return createHash('sha256').update(`vitrine-mesh-levels/${LEVEL_SET_FORMAT}\u0000${resultId}\u0000${segment}`).digest('hex');
}

/** A set as a result is kept: its packed bytes as a one-dimensional uint8 volume (named `keptId`, when given). */
export function keptForm(packed: Uint8Array, keptId?: string): StoredResult {
  const form: StoredResult = { type: 'volume', shape: [packed.byteLength], dtype: 'uint8', data: packed };
  if (keptId !== undefined) rememberResultId(form, keptId);
  return form;
}

/** The set a kept form holds, or null when it holds none. */
export function setOfKept(result: StoredResult | null): SegmentLods | null {
  if (result?.type !== 'volume' || !(result.data instanceof Uint8Array)) return null;
  return unpackLevelSet(result.data);
}
