/**
 * What a scene may hold: each bad field of a layer is a 400 whose detail names its path, each
 * list and table is bounded, and a scene of 32 layers, each as large as a layer may be and
 * each with the largest result the host can add, stays under 64 KiB of JSON; a long room id
 * that would push it past is refused rather than stored.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { isHostError } from '../../core/errors.ts';
import { checkLayer, checkLayerChange, checkSceneInput } from '../../core/scenes/check-layer.ts';
import { MAX_LAYER_BYTES, MAX_SCENE_BYTES } from '../../core/scenes/scene-limits.ts';
import { checkLayerSteps, SINGLE_STEP } from '../../core/scenes/layer-steps.ts';
import { addLayer, EMPTY_SCENE, fitSteps, replaceLayers, setLayerResult, type LayerDraft } from '../../core/scenes/scene-ops.ts';
import { layerDataUrl } from '../../core/scenes/scene-size.ts';

function detailOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (isHostError(error)) return `${error.statusCode} ${error.message}`;
    throw error;
  }
  throw new Error('expected a refusal');
}

const SOURCE = { function: 'ramp', params: { n: 4 } };

describe('layer checks', () => {
  it('names the path of each bad field', () => {
    const cases: [unknown, RegExp][] = [
      [{ source: SOURCE, opacity: 1.5 }, /^400 layers\[2\]\.opacity must be between 0 and 1, got 1\.5$/],
      [{ source: SOURCE, opacity: '1' }, /layers\[2\]\.opacity must be between 0 and 1/],
      [{ source: SOURCE, visible: 'yes' }, /layers\[2\]\.visible must be true or false/],
      [{ source: SOURCE, blending: 'screen' }, /layers\[2\]\.blending must be one of translucent, additive, opaque, maximum, minimum/],
      [{ source: SOURCE, colormap: 'rainbow' }, /layers\[2\]\.colormap must be a colour map the host knows \(gray, viridis, magma/],
      [{ source: SOURCE, window: [5, 1] }, /layers\[2\]\.window must have lo < hi/],
      [{ source: SOURCE, window: [0, null] }, /layers\[2\]\.window\[1\] must be a finite number/],
      [{ source: SOURCE, gamma: 0 }, /layers\[2\]\.gamma must be above 0/],
      [{ source: SOURCE, mode: 'wire' }, /layers\[2\]\.mode must be one of slices, volume, surface, points/],
      [{ source: SOURCE, affine: Array(15).fill(0) }, /layers\[2\]\.affine must be a 4×4 matrix, row-major: 16 finite numbers/],
      [{ source: SOURCE, affine: [...Array(15).fill(0), 'x'] }, /layers\[2\]\.affine\[15\] must be a finite number/],
      [{ source: SOURCE, clip_planes: Array(5).fill([0, 0, 1, 0]) }, /layers\[2\]\.clip_planes lists 5 planes, more than 4/],
      [{ source: SOURCE, clip_planes: [[0, 0, 1]] }, /layers\[2\]\.clip_planes\[0\] must be a plane \[a, b, c, d\]/],
      [{ source: SOURCE, labels: { colors: { '3': 'red' } } }, /layers\[2\]\.labels\.colors\["3"\] must be a colour written #rrggbb/],
      [{ source: SOURCE, labels: { colors: { x: '#ff0000' } } }, /layers\[2\]\.labels\.colors has key "x", which is no label id/],
      [{ source: SOURCE, labels: { selected: Array(65).fill(1) } }, /layers\[2\]\.labels\.selected lists 65 ids, more than 64/],
      [{ source: SOURCE, labels: { selected: [-1] } }, /layers\[2\]\.labels\.selected\[0\] must be a label id/],
      [{ source: SOURCE, labels: { show: 'some' } }, /layers\[2\]\.labels\.show must be one of all, selected/],
      [{ source: SOURCE, labels: { hidden: [] } }, /layers\[2\]\.labels\.hidden is not a member here/],
      [{ source: SOURCE, t: -1 }, /layers\[2\]\.t must be a time step/],
      [{ source: SOURCE, t: 1.5 }, /layers\[2\]\.t must be a time step/],
      [{ source: SOURCE, playing: -2 }, /layers\[2\]\.playing must be steps per second/],
      [{ source: SOURCE, channels: [{ color: '#00ff00', window: [1, 0] }] }, /layers\[2\]\.channels\[0\]\.window must have lo < hi/],
      [{ source: SOURCE, channels: Array(9).fill({}) }, /layers\[2\]\.channels lists 9 channels, more than 8/],
      [{ source: SOURCE, name: 'x'.repeat(129) }, /layers\[2\]\.name must be a text of 1 to 128 characters/],
      [{ source: SOURCE, id: 'a b' }, /layers\[2\]\.id must be 1 to 64 letters, digits/],
      [{ source: SOURCE, id: 'x'.repeat(65) }, /layers\[2\]\.id must be 1 to 64/],
      [{ source: SOURCE, kind: 'volume' }, /layers\[2\]\.kind must be one of image, labels, mesh, points/],
      [{ source: SOURCE, shading: 'flat' }, /layers\[2\]\.shading is not a layer field/],
      [{ opacity: 1 }, /layers\[2\]\.source is required/],
      [{ source: { specimen: 'a', function: 'b' } }, /layers\[2\]\.source must give exactly one of 'specimen' \(an id\) and 'function'/],
      [{ source: { specimen: 'a', params: [] } }, /layers\[2\]\.source\.params must be an object/],
      [{ source: { function: 'f', params: { big: 'x'.repeat(1100) } } }, /layers\[2\]\.source\.params takes \d+ bytes of JSON, more than the 1024/],
      [{ source: { function: 'f', bind: { points: { label: 3 } } } }, /layers\[2\]\.source\.bind\.points\.label must be a text/],
      [{ source: { function: 'f', params: { points: [] }, bind: { points: {} } } }, /layers\[2\]\.source\.bind\.points is given in params too/],
      [{ source: { function: 'f' }, result: 'ignored', colormap: 'viridis' }, /^ok$/],
    ];
    for (const [layer, pattern] of cases) {
      let detail = 'ok';
      try {
        checkLayer(layer, 'layers[2]');
      } catch (error) {
        if (!isHostError(error)) throw error;
        expect(error.statusCode, JSON.stringify(layer)).toBe(400);
        detail = `${error.statusCode} ${error.message}`;
      }
      expect(detail, JSON.stringify(layer).slice(0, 120)).toMatch(pattern);
    }
  });

  it('checks a change: null takes a field back, the id stays, active only becomes true', () => {
    expect(checkLayerChange({ opacity: null, colormap: 'ice', active: true }, 'a')).toEqual({ display: { opacity: null, colormap: 'ice' }, active: true });
    expect(detailOf(() => checkLayerChange({ id: 'b' }, 'a'))).toMatch(/layer\.id cannot change/);
    expect(detailOf(() => checkLayerChange({ active: false }, 'a'))).toMatch(/layer\.active can only be true/);
    expect(detailOf(() => checkLayerChange({ opacity: 2 }, 'a'))).toMatch(/^400 layer\.opacity must be between 0 and 1/);
    expect(detailOf(() => checkSceneInput({ layers: {} }))).toMatch(/^400 layers must be a list/);
    expect(detailOf(() => checkSceneInput({ snapshot: 'abc' }))).toMatch(/snapshot must be a snapshot id/);
    expect(detailOf(() => checkSceneInput({ layers: [], active: 'a b' }))).toMatch(/^400 active must be 1 to 64/);
  });
});

/** A layer as large as any field allows, cut to the most a layer may take. */
function maximalLayer(i: number): LayerDraft {
  const colors = Object.fromEntries(Array.from({ length: 32 }, (_, k) => [String(4294967295 - k), '#abcdef']));
  const layer: LayerDraft = {
    id: `layer-${String(i).padStart(2, '0')}-${'x'.repeat(55)}`,
    name: 'n'.repeat(128),
    source: { function: 'f'.repeat(200), params: {} },
    kind: 'labels',
    visible: true,
    opacity: 0.123456789012345,
    blending: 'translucent',
    colormap: 'viridis',
    window: [-1.2345678901234567e300, 1.2345678901234567e300],
    gamma: 0.12345678901234567,
    labels: { colors, selected: Array.from({ length: 64 }, (_, k) => 4294967295 - k), show: 'selected' },
    affine: Array.from({ length: 16 }, () => -1.2345678901234567e-300),
    clip_planes: Array.from({ length: 4 }, () => [-1.2345678901234567e-300, 1, 1, 1] as [number, number, number, number]),
    t: 2147483647,
    playing: 999.123456789,
    channels: Array.from({ length: 8 }, () => ({ visible: false, color: '#abcdef', window: [-1.5e300, 1.5e300] as [number, number] })),
  };
  // Every field at its most is more than a layer may take: the parts that fill it are trimmed until it fits.
  const fits = (): boolean => Buffer.byteLength(JSON.stringify({ ...layer })) <= MAX_LAYER_BYTES;
  while (!fits() && layer.labels!.selected!.length > 0) layer.labels!.selected!.pop();
  while (!fits() && layer.channels!.length > 0) layer.channels!.pop();
  while (!fits() && Object.keys(layer.labels!.colors!).length > 0) delete layer.labels!.colors![Object.keys(layer.labels!.colors!)[0]!];
  return layer;
}

describe('scene size', () => {
  it('keeps 32 maximal layers with their largest results under 64 KiB', () => {
    const roomId = `lab-${'r'.repeat(60)}`;
    const layers = Array.from({ length: 32 }, (_, i) => maximalLayer(i));
    const stored = replaceLayers(roomId, layers)(EMPTY_SCENE) as RoomScene;
    expect(stored.layers).toHaveLength(32);
    const withResults: RoomScene = {
      version: Number.MAX_SAFE_INTEGER,
      active: stored.layers[0]!.id,
      layers: stored.layers.map((l): SceneLayer => ({
        ...l,
        result: { result_id: 'f'.repeat(64), type: 'point_cloud', data_url: layerDataUrl(roomId, l.id), blob_id: 'f'.repeat(64) },
      })),
    };
    const bytes = Buffer.byteLength(JSON.stringify(withResults));
    expect(bytes).toBeGreaterThan(55 * 1024);
    expect(bytes).toBeLessThan(MAX_SCENE_BYTES);
  });

  it('refuses a layer past its own size, and a scene a long room id would push past 64 KiB', () => {
    const big: LayerDraft = {
      ...maximalLayer(0),
      labels: { colors: Object.fromEntries(Array.from({ length: 32 }, (_, k) => [String(k), '#abcdef'])), selected: Array(64).fill(4294967295) },
    };
    expect(detailOf(() => addLayer('room', big)(EMPTY_SCENE))).toMatch(/^400 layers\[0\] takes \d+ bytes of JSON, more than the 1536 a layer may take/);
    const longRoom = 'é'.repeat(256);
    const layers = Array.from({ length: 32 }, (_, i) => maximalLayer(i));
    expect(detailOf(() => replaceLayers(longRoom, layers)(EMPTY_SCENE))).toMatch(/^400 the scene would take \d+ bytes of JSON, over the 65536/);
  });
});

describe('a layer fitted to its result', () => {
  const result = { result_id: 'a'.repeat(64), type: 'volume' as const, data_url: '/x' };
  const channels = [{ visible: true }, { visible: false }, { color: '#ff0000' }];
  const scene = addLayer('room', { id: 'v', source: SOURCE, kind: 'image', t: 9, channels })(EMPTY_SCENE) as RoomScene;

  it('has its step brought to the last one and its extra channels dropped when the result is set', () => {
    const set = setLayerResult('v', SOURCE, result, undefined, { steps: 4, channels: 2 })(scene) as RoomScene;
    expect(set.layers[0]).toMatchObject({ t: 3, channels: channels.slice(0, 2), result });
    // Without counts (not known), the step stays as asked.
    expect((setLayerResult('v', SOURCE, result)(scene) as RoomScene).layers[0]).toMatchObject({ t: 9, channels });
    // Fitted later, only while it shows that result; nothing to change is no change.
    const later = setLayerResult('v', SOURCE, result)(scene) as RoomScene;
    expect(fitSteps('v', { ...result, result_id: 'b'.repeat(64) }, { steps: 4, channels: 2 })(later)).toBeNull();
    expect((fitSteps('v', result, { steps: 4, channels: 2 })(later) as RoomScene).layers[0]).toMatchObject({ t: 3 });
    expect(fitSteps('v', result, { steps: 10, channels: 3 })(later)).toBeNull();
  });

  it('refuses a step or channels past the counts, naming the field', () => {
    expect(detailOf(() => checkLayerSteps({ t: 20 }, { steps: 20, channels: 2 }, 'layer'))).toBe(
      "400 layer.t must be a step of the layer's result, which has 20 time steps (t from 0 to 19), got 20",
    );
    expect(detailOf(() => checkLayerSteps({ channels: [{}, {}, {}] }, { steps: 1, channels: 2 }, 'layers[1]'))).toBe(
      "400 layers[1].channels lists 3 channels, but the layer's result has 2 channels",
    );
    expect(() => checkLayerSteps({ t: 19, channels: [{}, {}] }, { steps: 20, channels: 2 }, 'layer')).not.toThrow();
    expect(() => checkLayerSteps({ t: null, channels: null }, SINGLE_STEP, 'layer')).not.toThrow();
  });
});
