/**
 * The room's frame in its Neuroglancer state: a length unit as Neuroglancer's metre scales, and a
 * room in micrometres whose mesh, point layer and marks are read in micrometres (an OBJ's numbers
 * are nanometres to Neuroglancer, precomputed annotations unitless), its dimensions named in that
 * unit and its 3-D view framed on the scene's extent.
 */
import { describe, expect, it } from 'vitest';
import { frameDimensions, projectionScale } from '../../core/exports/neuroglancer-frame.ts';
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
    const state = neuroglancerState('plant', scene, new Set(['point']), 'http://host', new Map(), new Map([['seeds', [[1, 2, 3]]]]), 'micrometer', 300);
    const [surface, seeds, marks] = state.layers as Record<string, unknown>[];
    expect(surface!.source).toEqual({
      url: 'obj://http://host/api/rooms/plant/layers/mesh/data?format=obj&normals=false',
      transform: { inputDimensions: um, outputDimensions: um },
    });
    // Segment 3's categorical colour (#e84ed5) at the layer's opacity.
    expect(surface!.shader).toBe('void main() {\n  emitRGBA(vec4(0.910, 0.306, 0.835, 0.900));\n}\n');
    expect(seeds!.source).toEqual({ url: 'local://annotations', transform: { inputDimensions: um, outputDimensions: um } });
    expect(marks!.source).toEqual({
      url: 'precomputed://http://host/api/rooms/plant/annotations/precomputed/point',
      transform: { inputDimensions: um, outputDimensions: um },
    });
    expect(state).toMatchObject({ dimensions: um, projectionScale: 512 });
  });
});
