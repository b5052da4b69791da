/**
 * A layer's name when none is given: a segmentation and the surfaces made of it are different
 * rows (`sci.cells`, `sci.cells segment 2`), and a source changed or a name taken back to its
 * default follows the same rule.
 */
import { describe, expect, it } from 'vitest';
import { addLayer, EMPTY_SCENE, patchLayer } from '../../core/scenes/scene-ops.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';

const apply = (scene: RoomScene | null, op: (s: RoomScene) => RoomScene | null): RoomScene => op(scene ?? EMPTY_SCENE)!;

describe('default layer names', () => {
  it('names a labels layer and each surface of it apart', () => {
    let scene = apply(null, addLayer('sci', { source: { specimen: 'sci.cells' }, kind: 'labels' }));
    scene = apply(scene, addLayer('sci', { source: { specimen: 'sci.cells', segment: 2 }, kind: 'mesh' }));
    scene = apply(scene, addLayer('sci', { source: { specimen: 'sci.cells', segment: 'all' }, kind: 'mesh' }));
    expect(scene.layers.map((layer) => layer.name)).toEqual(['sci.cells', 'sci.cells segment 2', 'sci.cells all segments']);
    expect(new Set(scene.layers.map((layer) => layer.id)).size).toBe(3);
  });

  it('keeps a given name, and follows a new source or a name taken back', () => {
    let scene = apply(null, addLayer('sci', { id: 's', source: { specimen: 'sci.cells', segment: 2 }, kind: 'mesh' }));
    scene = apply(scene, patchLayer('sci', 's', { source: { specimen: 'sci.cells', segment: 3 }, display: {} }));
    expect(scene.layers[0]!.name).toBe('sci.cells segment 3');
    scene = apply(scene, patchLayer('sci', 's', { display: { name: 'nucleus' } }));
    scene = apply(scene, patchLayer('sci', 's', { source: { specimen: 'sci.cells', segment: 4 }, display: {} }));
    expect(scene.layers[0]!.name).toBe('nucleus');
    scene = apply(scene, patchLayer('sci', 's', { display: { name: null } }));
    expect(scene.layers[0]!.name).toBe('sci.cells segment 4');
    const named = apply(null, addLayer('sci', { source: { specimen: 'sci.cells', segment: 2 }, kind: 'mesh', name: 'cell two' }));
    expect(named.layers[0]!.name).toBe('cell two');
  });
});
