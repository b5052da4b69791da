/**
 * The stage's layer geometry, without a GPU: a volume stands in its physical frame (voxel
 * centres at origin + spacing × index), a layer's affine and clip planes become its group's
 * matrix and world planes, segmentation ids index their colour table exactly (uint8/uint16 as
 * they are, anything else by its distinct ids), colours follow the layer's overrides and
 * selection, and picking finds what is seen first over the layers, clip planes honoured.
 */
import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import type { VolumeData } from '../../core/wire/decoded-types.ts';
import { labelColour, labelRgb } from '../../core/wire/label-colors.ts';
import { labelTable } from '../../viewer/layers/labels/labels-volume.ts';
import { labelIdsOf } from '../../viewer/layers/labels/label-ids.ts';
import { affineMatrix, keptByPlanes, layerPlanes, toWorldPlanes } from '../../viewer/stage/layer-look.ts';
import { StageLayers } from '../../viewer/stage/stage-layers.ts';
import { pickLayers } from '../../viewer/stage/stage-pick.ts';
import { volumeFrame } from '../../viewer/layers/volume/volume-frame.ts';

const volume = (shape: number[], spacing: number[] | null, origin: number[] | null): VolumeData => ({
  type: 'volume', shape, dtype: 'uint8', data: new Uint8Array(shape.reduce((a, b) => a * b, 1)), spacing, origin, value_range: null,
});

/** Where the centre of voxel (x, y, z) lands in world space. */
function voxelCentre(frame: ReturnType<typeof volumeFrame>, x: number, y: number, z: number): THREE.Vector3 {
  frame.outer.updateMatrixWorld(true);
  return frame.inner.localToWorld(new THREE.Vector3(frame.offsetOf('x', x), frame.offsetOf('y', y), frame.offsetOf('z', z)));
}

describe('the physical frame of a volume', () => {
  it('puts voxel centres at origin + spacing × index, spacing and origin in C order', () => {
    const frame = volumeFrame(volume([4, 8, 16], [2, 1, 0.5], [10, 20, 30]));
    for (const [x, y, z] of [[0, 0, 0], [15, 7, 3], [5, 2, 1]] as const) {
      const p = voxelCentre(frame, x, y, z);
      expect(p.x).toBeCloseTo(30 + 0.5 * x, 6);
      expect(p.y).toBeCloseTo(20 + 1 * y, 6);
      expect(p.z).toBeCloseTo(10 + 2 * z, 6);
      expect(frame.voxelAt(frame.inner.worldToLocal(p.clone()))).toEqual({ x, y, z });
    }
    expect(frame.voxelAt(new THREE.Vector3(5, 0, 0))).toBeNull();
  });
});

describe('a layer\'s display as geometry', () => {
  it('reads the affine row-major and keeps the side of a clip plane where ax+by+cz+d ≥ 0', () => {
    const m = affineMatrix([1, 0, 0, 5, 0, 2, 0, 0, 0, 0, 1, -1, 0, 0, 0, 1]);
    expect(new THREE.Vector3(1, 1, 1).applyMatrix4(m).toArray()).toEqual([6, 2, 0]);
    expect(affineMatrix([1, 2]).equals(new THREE.Matrix4())).toBe(true);
    const planes = layerPlanes([[2, 0, 0, -4], [0, 0, 0, 1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 1, 1, 1]]);
    expect(planes).toHaveLength(4);
    // Moved by the layer's frame (a translation by +10 on x): x ≥ 2 becomes x ≥ 12.
    const world: THREE.Plane[] = [];
    toWorldPlanes(planes.slice(0, 1), new THREE.Matrix4().makeTranslation(10, 0, 0), world);
    expect(keptByPlanes(world, new THREE.Vector3(12.5, 0, 0))).toBe(true);
    expect(keptByPlanes(world, new THREE.Vector3(11.5, 0, 0))).toBe(false);
  });
});

describe('segmentation ids and colours', () => {
  it('indexes uint8 and uint16 ids as they are, and other dtypes by their distinct ids', () => {
    const small = labelIdsOf(Uint16Array.from([0, 7, 7, 300, 0]));
    expect([small.index instanceof Uint16Array, small.size, small.present]).toEqual([true, 65536, [7, 300]]);
    expect(small.indexOf(300)).toBe(300);
    expect(small.indexOf(5)).toBe(-1);
    const large = labelIdsOf(Uint32Array.from([0, 4_000_000_000, 4_000_000_000, 9, 0]));
    expect(large.present).toEqual([9, 4_000_000_000]);
    expect([...large.index].map((i) => large.idOf(i))).toEqual([0, 4_000_000_000, 4_000_000_000, 9, 0]);
  });

  it('colours ids by the layer, then the result, then the id; 0 and unselected ids are not drawn', () => {
    const ids = labelIdsOf(Uint8Array.from([0, 1, 2, 3]));
    const sources = { resultColors: { '2': '#00ff00', '3': '#0000ff' }, labels: { colors: { '3': '#ff0000' } } };
    const table = labelTable(ids, sources);
    expect([...table.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...table.subarray(4, 8)]).toEqual([...labelRgb(1), 255]);
    expect([...table.subarray(8, 12)]).toEqual([0, 255, 0, 255]);
    expect([...table.subarray(12, 16)]).toEqual([255, 0, 0, 255]);
    expect(labelColour(2, { labels: { show: 'selected', selected: [3] } })).toBeNull();
    expect(labelColour(3, { labels: { show: 'selected', selected: [3] } })).not.toBeNull();
    expect(labelRgb(1)).not.toEqual(labelRgb(2));
  });
});

describe('picking over layers', () => {
  it('finds the nearest thing a ray sees, clip planes honoured, with its point in the layer\'s frame', () => {
    const root = new THREE.Group();
    const layers = new StageLayers(root, () => {});
    const sphere = () => ({
      object: new THREE.Mesh(new THREE.SphereGeometry(1, 32, 16), new THREE.MeshBasicMaterial({ side: THREE.DoubleSide })),
      dispose() {},
    });
    const near = sphere();
    near.object.position.z = 5;
    const far = sphere();
    layers.setContent('far', far);
    layers.setContent('near', near);
    layers.setDisplay('near', { affine: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1] });
    root.updateMatrixWorld(true);
    const ray = new THREE.Raycaster(new THREE.Vector3(0, 0, 20), new THREE.Vector3(0, 0, -1));
    const hit = pickLayers(layers.list(), ray, root)!;
    expect([hit.layer, hit.kind]).toEqual(['near', 'surface']);
    expect(hit.room.z).toBeCloseTo(7, 6);
    expect(hit.local.z).toBeCloseTo(6, 6);
    // Keeping only z ≤ 4.5 of its own frame cuts its front away: the ray meets its back (local 4, room 5).
    layers.setDisplay('near', { affine: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1], clip_planes: [[0, 0, -1, 4.5]] });
    layers.updatePlanes();
    const cut = pickLayers(layers.list(), ray, root)!;
    expect(cut.layer).toBe('near');
    expect(cut.room.z).toBeCloseTo(5, 6);
    layers.setDisplay('near', { visible: false });
    expect(pickLayers(layers.list(), ray, root)!.layer).toBe('far');
  });
});
