import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { GrabControls } from '../../viewer/xr/grab-controls.ts';
import { FRONT_DISTANCE, initialScale, localBox, placeOnTable, scaleAbout, TABLE_HEIGHT } from '../../viewer/xr/specimen-placement.ts';
import { DEFAULT_VR_TRIANGLES, vrDelivery, vrTriangleBudget } from '../../viewer/xr/triangle-budget.ts';

const box = (min: number[], max: number[]) => new THREE.Box3(new THREE.Vector3(...min), new THREE.Vector3(...max));
const close = (a: THREE.Vector3, b: number[]) => a.toArray().forEach((v, i) => expect(v).toBeCloseTo(b[i]!, 6));

describe('VR placement', () => {
  it('keeps real size for what fits on a table, and brings the rest to 60 cm', () => {
    expect(initialScale(box([-0.2, 0, -0.2], [0.2, 0.5, 0.2]))).toBe(1);
    expect(initialScale(box([-1, -1, -1], [1, 1, 1]))).toBeCloseTo(0.3);
    expect(initialScale(box([0, 0, 0], [0.001, 0.001, 0.01]))).toBeCloseTo(60);
    expect(initialScale(new THREE.Box3())).toBe(1);
  });

  it('stands the content on the table a metre in front, and scales it about its centre', () => {
    const root = new THREE.Group();
    const content = new THREE.Mesh(new THREE.BoxGeometry(2, 1, 2));
    content.position.set(5, 3, 0);
    root.add(content);
    const local = localBox(root, content);
    placeOnTable(root, local, 0.25);
    const world = new THREE.Box3().setFromObject(content);
    expect(world.min.y).toBeCloseTo(TABLE_HEIGHT);
    close(world.getCenter(new THREE.Vector3()), [0, TABLE_HEIGHT + 0.125, -FRONT_DISTANCE]);
    const center = local.getCenter(new THREE.Vector3());
    scaleAbout(root, center, 0.5);
    expect(root.scale.x).toBe(0.5);
    close(new THREE.Box3().setFromObject(content).getCenter(new THREE.Vector3()), [0, TABLE_HEIGHT + 0.125, -FRONT_DISTANCE]);
  });

  it('one hand carries the specimen rigidly; two hands scale and turn it', () => {
    const root = new THREE.Group();
    const a = new THREE.Object3D();
    const b = new THREE.Object3D();
    a.position.set(-0.2, 1, -0.5);
    b.position.set(0.2, 1, -0.5);
    [a, b].forEach((o) => o.updateMatrixWorld(true));
    const grab = new GrabControls(root);
    grab.grab(a);
    a.position.x += 0.3;
    a.rotateY(Math.PI / 2);
    a.updateMatrixWorld(true);
    grab.update();
    // The root (0.2 m right of, 1 m under and 0.5 m behind the hand) turned a quarter about the hand and moved with it.
    close(root.position, [0.1 + 0.5, 0, -0.5 - 0.2]);
    expect(root.scale.x).toBeCloseTo(1);
    // Hands 0.1 m apart, then 0.4 m: four times the size, about their midpoint; no turn (same heading).
    grab.grab(b);
    b.position.set(0.1 + 0.4, 1, -0.5);
    b.updateMatrixWorld(true);
    grab.update();
    expect(root.scale.x).toBeCloseTo(4);
    // The other hand pulled back along z: the line between them turns a quarter, and so does the specimen.
    const turnedBefore = root.quaternion.clone();
    b.position.set(0.1, 1, -0.5 + 0.4);
    b.updateMatrixWorld(true);
    grab.update();
    expect(root.scale.x).toBeCloseTo(4);
    expect(root.quaternion.angleTo(turnedBefore)).toBeCloseTo(Math.PI / 2);
    grab.release(a);
    grab.release(b);
    expect(grab.active).toBe(false);
  });
});

describe('VR triangle budget', () => {
  it('reads xr_triangles from the URL, else 300000, and applies to meshes only', () => {
    expect(vrTriangleBudget('')).toBe(DEFAULT_VR_TRIANGLES);
    expect(DEFAULT_VR_TRIANGLES).toBe(300_000);
    expect(vrTriangleBudget('?xr_triangles=50000')).toBe(50_000);
    for (const bad of ['?xr_triangles=', '?xr_triangles=-3', '?xr_triangles=1.5', '?xr_triangles=lots'])
      expect(vrTriangleBudget(bad)).toBe(DEFAULT_VR_TRIANGLES);
    expect(vrDelivery('mesh', 1000)).toEqual({ max_triangles: 1000 });
    expect(vrDelivery('volume', 1000)).toBeUndefined();
    expect(vrDelivery('point_cloud', 1000)).toBeUndefined();
  });
});
