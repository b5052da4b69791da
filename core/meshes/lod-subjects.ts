/**
 * @module lod-subjects
 * What has levels of detail, as their builds see it: a held result (a labels volume, each
 * segment its own surface; a mesh, one surface) or labels read by region (an edited version
 * not made whole), with its segments' ids, the transform of their stored coordinates and its
 * label index; and each segment's source, its triangles known at once from the index (a build
 * too large is refused on them) and its voxels read only when it is built: the whole volume's,
 * or, read by region, the segment's box alone.
 */
import { createHostError } from '../errors.ts';
import { findLabel, type LabelIndex } from '../labels/label-index.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { LodTaskSource } from './lod-tasks.ts';
import { isRegionLabels, type RegionLabels } from './region-labels.ts';

/** What has levels of detail: a held result, or labels read by region (an edited version not made whole). */
export type LodResult = StoredResult | RegionLabels;

/** A mesh result's one surface. */
export const MESH_SEGMENT = 1;

/** A result that has levels of detail: its surfaces' ids and the transform of their stored coordinates. */
export interface LodSubject {
  result: LodResult;
  /** Segment ids, ascending. */
  segments: Uint32Array;
  transform: number[];
  /** A labels volume's index (its segments' voxel counts and boxes); null for a mesh. */
  index: LabelIndex | null;
}

/**
 * A surface's source as a build needs it: its triangles known at once (the build is refused on
 * them), its voxels read only then (a held result's at once, labels read by region later).
 */
export interface SourceOf {
  triangles: number;
  read(): LodTaskSource | Promise<LodTaskSource>;
}

/**
 * Segment `segment` of a subject as a build reads it. @throws SPC_ERR_SEGMENT_NOT_FOUND for a
 * segment it lacks.
 */
export function segmentSource(subject: LodSubject, segment: number): SourceOf {
  const { result, index } = subject;
  if (!index) {
    if (segment !== MESH_SEGMENT || result.type !== 'mesh') {
      throw createHostError('SPC_ERR_SEGMENT_NOT_FOUND', String(segment), `a mesh result's one surface is segment ${MESH_SEGMENT}`);
    }
    return { triangles: result.indices.length / 3, read: () => ({ kind: 'mesh', mesh: result }) };
  }
  const k = findLabel(index, segment);
  if (k < 0 || result.type === 'mesh') throw createHostError('SPC_ERR_SEGMENT_NOT_FOUND', String(segment), `it holds ${index.ids.length} labels`);
  const box = Array.from(index.boxes.subarray(k * 6, k * 6 + 6));
  // Surface nets make two triangles of every face between the segment and the rest.
  const triangles = 2 * index.faces[k]!;
  if (isRegionLabels(result)) {
    // Only the segment's box is read, by the thread that builds: surface nets look at nothing outside it.
    const read = async (): Promise<LodTaskSource> => {
      const region = await result.take(box.slice(0, 3), box.slice(3).map((v) => v + 1));
      return { kind: 'region', region, id: segment, box, triangles, transform: subject.transform };
    };
    return { triangles, read };
  }
  if (result.type !== 'volume') throw createHostError('SPC_ERR_SEGMENT_NOT_FOUND', String(segment), `it holds ${index.ids.length} labels`);
  return { triangles, read: () => ({ kind: 'labels', volume: result, id: segment, box, triangles }) };
}
