/**
 * @module lod-shared
 * A layer's surfaces from levels of detail outlive the contents that show them: a segmentation
 * is drawn as its surfaces alone first, then with its coarse volume, then with its full one,
 * and each of those contents shows the same surfaces (their fragments fetched once). They are
 * held per stage layer and result; each content holds them while it lives, and they are let go
 * (requests cancelled, fragments freed) when the last one is disposed. A mesh layer drawn from
 * its levels is the surfaces as a content of their own.
 */
import type { MeshLevels } from '../../../core/client/mesh-levels.ts';
import type { MeshSegmentList } from '../../../core/wire/mesh-level-types.ts';
import type { StageContent } from '../../stage/stage-content.ts';
import type { LodBudget } from './lod-budget.ts';
import { createLodSurfaces, type LodSurfaces, type LodSurfacesOptions } from './lod-surfaces.ts';

/** A result's levels as a caller hands them to the kind that draws them. */
export interface LodSource {
  /** Where they are drawn: the stage layer's id (one set of surfaces per layer and result). */
  slot: string;
  levels: MeshLevels;
  list: MeshSegmentList;
  budget: LodBudget;
}

interface Held {
  surfaces: LodSurfaces;
  holders: number;
}

const held = new Map<string, Held>();

/** The surfaces of `source` (made with `options` when none are held), held until `release`. */
export function holdSurfaces(
  stage: Parameters<typeof createLodSurfaces>[0],
  source: LodSource,
  options: Omit<LodSurfacesOptions, 'levels' | 'list' | 'budget'>,
): { surfaces: LodSurfaces; release(): void } {
  const key = `${source.slot}\u0000${source.levels.resultId}`;
  const { levels, list, budget } = source;
  const mine = held.get(key) ?? { surfaces: createLodSurfaces(stage, { ...options, levels, list, budget }), holders: 0 };
  held.set(key, mine);
  mine.holders++;
  let released = false;
  return {
    surfaces: mine.surfaces,
    release() {
      if (released) return;
      released = true;
      if (--mine.holders > 0) return;
      held.delete(key);
      mine.surfaces.dispose();
    },
  };
}

/** The surfaces of `source` as a layer's whole content (a large mesh drawn from its levels), held while it lives. */
export function surfacesContent(...args: Parameters<typeof holdSurfaces>): StageContent {
  const { surfaces, release } = holdSurfaces(...args);
  return { ...surfaces, dispose: release };
}
