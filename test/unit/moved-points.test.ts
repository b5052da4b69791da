/**
 * Which bound layers a scene change gives other points (core/scenes/service/moved-points.ts): a new
 * affine of the layer a seed was marked on, or of the bound layer itself, moves its points; a
 * new affine of a layer with no seed of the bound label, a change that is no affine, or a
 * layer computed anyway (a new source) moves nothing that needs computing again.
 */
import { describe, expect, it } from 'vitest';
import type { Annotation, RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { movedBoundLayers } from '../../core/scenes/service/moved-points.ts';

const shift = (x: number) => [1, 0, 0, x, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

const marks = [
  { id: 'a1', kind: 'point', points: [[1, 0, 0]], layer: 'moved', label: 's' },
  { id: 'a2', kind: 'point', points: [[3, 3, 3]], layer: 'plain', label: 'other' },
] as unknown as Annotation[];
const annotations = { list: async () => ({ version: 2, annotations: marks }) };

function scene(change: (layers: Record<string, SceneLayer>) => void = () => {}): RoomScene {
  const layers: Record<string, SceneLayer> = {
    moved: { id: 'moved', kind: 'mesh', source: { function: 'marked' }, affine: [2, 0, 0, 10, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1] },
    plain: { id: 'plain', kind: 'mesh', source: { function: 'marked' } },
    seg: { id: 'seg', kind: 'mesh', source: { function: 'marked', bind: { points: { label: 's' } } }, affine: shift(5) },
  } as Record<string, SceneLayer>;
  change(layers);
  return { version: 1, layers: Object.values(layers), active: null };
}

const moved = (after: RoomScene) => movedBoundLayers(annotations, 'r', scene(), after);

describe('movedBoundLayers', () => {
  it('lists a bound layer when the layer its seed was marked on moves, or it moves itself', async () => {
    expect(await moved(scene((l) => (l.moved!.affine = shift(0))))).toEqual(['seg']);
    expect(await moved(scene((l) => delete l.seg!.affine))).toEqual(['seg']);
  });

  it('lists none when nothing it takes moves', async () => {
    // A layer with no seed of the bound label moves.
    expect(await moved(scene((l) => (l.plain!.affine = shift(3))))).toEqual([]);
    // A change that is no affine.
    expect(await moved(scene((l) => (l.moved!.opacity = 0.5)))).toEqual([]);
    // A new source: the layer is computed anyway.
    expect(await moved(scene((l) => ((l.moved!.affine = shift(0)), (l.seg!.source = { function: 'marked', bind: { points: { label: 'z' } } }))))).toEqual([]);
  });
});
