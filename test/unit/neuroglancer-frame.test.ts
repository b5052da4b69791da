/**
 * The room's frame in its Neuroglancer state: a length unit as Neuroglancer's metre scales, and a
 * room in micrometres whose mesh, point layer and marks are read in micrometres (an OBJ's numbers
 * are nanometres to Neuroglancer, precomputed annotations unitless), its dimensions named in that
 * unit, its 3-D view framed on the scene's extent and its cross-sections through the scene's middle.
 */
import { describe, expect, it } from 'vitest';
import { frameDimensions, projectionScale, scenePlace } from '../../core/exports/neuroglancer-frame.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { neuroglancerState } from '../../core/exports/neuroglancer-state.ts';
import type { RoomScene } from '../../core/wire/scene-types.ts';

const um = { x: [1e-6, 'm'], y: [1e-6, 'm'], z: [1e-6, 'm'] };

describe("the room's frame in a Neuroglancer state", () => {
  it('says a length unit in metres, however it is spelled, and nothing for a unit it does not know', () => {
    for (const unit of ['micrometer', 'um', 'µm', 'micrometres']) expect(frameDimensions(unit)).toEqual(um);
    expect(frameDimensions('mm').x).toEqual([1e-3, 'm']);
    expect(frameDimensions(null)).toEqual({ x: [1, ''], y: [1, ''], z: [1, ''] });
    expect(frameDimensions('furlong')).toEqual({ x: [1, ''], y: [1, ''], z: [1, ''] });
  });

  it('rounds the 3-D view up to a power of two over the extent, as Neuroglancer does from bounds', () => {
    expect(projectionScale(256)).toBe(256);
    expect(projectionScale(257)).toBe(512);
    expect(projectionScale(0.3)).toBe(0.5);
  });

  it('crosses the scene at its middle, on a voxel centre of its first volume, whichever source answers first', async () => {
    // 32 voxels a side, each centred at origin + spacing × index (C order): x 3 to 65, y 2 to 17.5, z 1 to 16.5.
    const grid = { shape: [32, 32, 32], spacing: [0.5, 0.5, 2], origin: [1, 2, 3] };
    const volume = { type: 'volume', data: new Uint8Array(32 ** 3), ...grid } as StoredResult;
    const mesh = { type: 'mesh', vertices: Float32Array.of(0, 0, 0, 1, 1, 1), indices: Uint32Array.of(0, 1, 0) } as StoredResult;
    const held = new Map([['v', volume], ['m', mesh]]);
    const find = async (id: string) => held.get(id) ?? null;
    const layer = (id: string, type: 'volume' | 'mesh') =>
      ({ id, kind: type === 'volume' ? 'image' : 'mesh', source: { function: id }, result: { result_id: id, type, data_url: '/' } }) as const;
    // The box's middle (34, 9.75, 8.75) lies on voxel faces: the planes go through voxel 16's centre instead.
    expect(await scenePlace({ version: 1, active: null, layers: [layer('v', 'volume')] }, find)).toEqual({ extent: 64, position: [35, 10, 9] });
    // With no volume, the middle itself.
    expect(await scenePlace({ version: 1, active: null, layers: [layer('m', 'mesh')] }, find)).toEqual({ extent: 1, position: [0.5, 0.5, 0.5] });
    expect(await scenePlace({ version: 1, active: null, layers: [] }, find)).toBeNull();
  });

  it('reads a room in micrometres: meshes, point layers and marks in micrometres, the view framed', () => {
    const result = (type: 'mesh' | 'point_cloud') => ({ result_id: `r-${type}`, type, data_url: `/api/rooms/plant/layers/${type}/data` });
    const scene: RoomScene = {
      version: 3,
      active: null,
      layers: [
        { id: 'surface', kind: 'mesh', source: { specimen: 'cells', segment: 3 }, opacity: 0.9, result: result('mesh') },
        { id: 'seeds', kind: 'points', source: { function: 'cloud' }, result: result('point_cloud') },
      ],
    };
    const place = { extent: 300, position: [130, 5, 6.5] };
    const state = neuroglancerState('plant', scene, new Set(['point']), 'http://host', new Map(), new Map([['seeds', [[1, 2, 3]]]]), 'micrometer', place);
    const [surface, seeds, marks] = state.layers as Record<string, unknown>[];
    expect(surface!.source).toEqual({
      url: 'http://host/api/rooms/plant/layers/mesh/data?format=vtk|vtk:',
      transform: { inputDimensions: um, outputDimensions: um },
    });
    // Segment 3's categorical colour (#e84ed5) at the layer's opacity.
    expect(surface!.shader).toBe('void main() {\n  emitRGBA(vec4(0.910, 0.306, 0.835, 0.900));\n}\n');
    expect(seeds!.source).toEqual({ url: 'local://annotations', transform: { inputDimensions: um, outputDimensions: um } });
    expect(marks!.source).toEqual({
      url: 'precomputed://http://host/api/rooms/plant/annotations/precomputed/point',
      transform: { inputDimensions: um, outputDimensions: um },
    });
    expect(state).toMatchObject({ dimensions: um, position: [130, 5, 6.5], projectionScale: 512 });
  });
});
