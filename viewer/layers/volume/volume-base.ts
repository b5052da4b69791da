/**
 * @module volume-base
 * What a scalar volume (volume-slices.ts) and a segmentation (labels-volume.ts) share on the
 * stage: the physical frame, the three slices following the stage's slice point, the view
 * picker (slices, or the whole volume ray marched, made on first use), the layer's look on
 * both, and picking: the visible voxel of a slice under a ray, or the first visible sample
 * along it when ray marched. The owner says how a voxel is coloured and whether it is seen.
 */
import * as THREE from 'three';
import { DEFAULT_VOLUME_MODE, VOLUME_BOX_COLOUR } from '../../../core/wire/layer-defaults.ts';
import { h, toolRow } from '../../dom.ts';
import { applyObjectLook } from '../../stage/layer-look.ts';
import { RAYMARCH_MAX_EDGE, RAYMARCH_MAX_VOXELS } from './raymarch-shader.ts';
import type { RaymarchedVolume } from './volume-raymarch.ts';
import type { SceneDepthUniforms } from '../../stage/scene-depth.ts';
import type { SliceLink } from '../../stage/slice-link.ts';
import { createSlicePlanes, type PixelFn } from './slice-planes.ts';
import type { ContentHit, LayerLook } from '../../stage/stage-content.ts';
import { AXES, type VolumeFrame } from './volume-frame.ts';

export type VolumeMode = 'slices' | 'volume';

/** The ray-marched form an owner makes: the mesh, look and disposal every marcher has. */
export type Marched = Pick<RaymarchedVolume, 'mesh' | 'applyLook' | 'dispose'>;

export interface VolumeBaseOptions {
  /** Words before the view in the panel's title ('' for "Slices"/"Volume"). */
  title: string;
  pixel: PixelFn;
  alphaTest: number;
  /** True when voxel (x, y, z) is drawn (past the floor; a label that shows): what a ray finds first. */
  seen(x: number, y: number, z: number): boolean;
  /** True when a slice's voxel answers a pick (default: when it is seen). A scalar volume answers anywhere on its slices. */
  pickedOnSlice?(x: number, y: number, z: number): boolean;
  /** Makes the ray-marched form (called once, on first use). */
  march(frame: VolumeFrame): Marched;
  /** The stage it stands on: its slice point, and what to tell when the picture changed. */
  stage: VolumeStage;
  /** The user picked a view (not called for views applied from elsewhere). */
  picked(mode: VolumeMode): void;
}

/** What a volume needs of the stage: its slice point and its scene depth (for the ray marcher). */
export interface VolumeStage {
  link: SliceLink;
  depth: SceneDepthUniforms;
  /** Something changed the picture: draw again. */
  changed(): void;
}

/** A hit on a volume before its owner says what the voxel holds. */
export type VoxelHit = Omit<ContentHit, 'voxel'> & { voxel: { x: number; y: number; z: number } };

/** The shared part of a volume, as createVolumeBase makes it. */
export type VolumeBase = ReturnType<typeof createVolumeBase>;

/** The shared part of a volume standing in `frame` (volume-frame.ts). */
export function createVolumeBase(frame: VolumeFrame, options: VolumeBaseOptions) {
  const { count, dims, inner } = frame;
  const planes = createSlicePlanes(frame, options.pixel, { alphaTest: options.alphaTest, changed: options.stage.changed });
  const edges = new THREE.EdgesGeometry(new THREE.BoxGeometry(dims.x, dims.y, dims.z));
  const edgeMaterial = new THREE.LineBasicMaterial({ color: new THREE.Color().setStyle(VOLUME_BOX_COLOUR, THREE.SRGBColorSpace) });
  const box = new THREE.LineSegments(edges, edgeMaterial);
  inner.add(box);
  let look: LayerLook | null = null;
  let marched: Marched | null = null;
  let mode: VolumeMode = DEFAULT_VOLUME_MODE;
  const fits = Math.max(count.x, count.y, count.z) <= RAYMARCH_MAX_EDGE && count.x * count.y * count.z <= RAYMARCH_MAX_VOXELS;
  const title = h('div', { class: 'slice-title' });
  const viewPicker = h('select', { class: 'select small', 'aria-label': 'volume view', 'data-axis': 'view' });
  viewPicker.appendChild(h('option', { value: 'slices' }, 'slices'));
  const volumeOption = fits
    ? { value: 'volume' }
    : { value: 'volume', disabled: true, title: `only up to ${RAYMARCH_MAX_EDGE} samples per edge` };
  viewPicker.appendChild(h('option', volumeOption, 'volume'));
  const titleOf = (m: VolumeMode): string => (options.title ? `${options.title}: ${m}` : m === 'volume' ? 'Volume' : 'Slices');
  title.textContent = titleOf(mode);

  /** Shows view `next` (a name that is no view is passed over). */
  const setMode = (next: string | undefined): void => {
    if ((next !== 'slices' && next !== 'volume') || (next === 'volume' && !fits)) return;
    mode = next;
    viewPicker.value = next;
    if (next === 'volume' && !marched) {
      marched = options.march(frame);
      if (look) marched.applyLook(look);
      inner.add(marched.mesh);
    }
    if (marched) marched.mesh.visible = next === 'volume';
    planes.setShown(next === 'slices');
    title.textContent = titleOf(next);
    options.stage.changed();
  };
  viewPicker.addEventListener('change', () => {
    setMode(viewPicker.value);
    options.picked(mode);
  });

  /** A voxel's centre in world space and its edge's length there. */
  const voxelPlace = (voxel: VoxelHit['voxel']): { centre: THREE.Vector3; voxelSize: number } => {
    const centre = frame.centreOf(voxel);
    return { centre, voxelSize: frame.centreOf({ ...voxel, x: voxel.x + 1 }).distanceTo(centre) };
  };

  /** The first seen sample along `ray` inside the box (ray marched view). */
  const march = (ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): VoxelHit | null => {
    inner.updateWorldMatrix(true, false);
    const toInner = inner.matrixWorld.clone().invert();
    const local = ray.ray.clone().applyMatrix4(toInner);
    const half = new THREE.Vector3(dims.x / 2, dims.y / 2, dims.z / 2);
    const entry = local.intersectBox(new THREE.Box3(half.clone().negate(), half), new THREE.Vector3());
    if (!entry) return null;
    const step = Math.min(dims.x / count.x, dims.y / count.y, dims.z / count.z) / 2;
    const p = entry.clone();
    const world = new THREE.Vector3();
    for (let i = 0; i < 4 * Math.max(count.x, count.y, count.z) * Math.sqrt(3); i++) {
      const voxel = frame.voxelAt(p);
      if (!voxel) break;
      world.copy(p).applyMatrix4(inner.matrixWorld);
      if (options.seen(voxel.x, voxel.y, voxel.z) && kept(world)) {
        return { distance: ray.ray.origin.distanceTo(world), point: world.clone(), kind: 'sample', voxel, ...voxelPlace(voxel) };
      }
      p.addScaledVector(local.direction, step);
    }
    return null;
  };

  return {
    frame,
    planes,
    title,
    /** The view picker's row (`select[data-axis=view]`). */
    viewRow: toolRow('label', 'view', null, viewPicker),
    mode: (): VolumeMode => mode,
    setMode,
    /** Drops the ray-marched form (its data changed): made again now when shown, else on first use. */
    remarch(): void {
      if (!marched) return;
      inner.remove(marched.mesh);
      marched.dispose();
      marched = null;
      if (mode === 'volume') setMode('volume');
    },
    applyLook(next: LayerLook): void {
      look = next;
      // The slices and the box's edges take it on their materials; the ray marcher on its uniforms.
      for (const object of [box, ...AXES.map((axis) => planes.meshes[axis])]) applyObjectLook(object, next);
      marched?.applyLook(next);
    },
    /** The nearest voxel under `ray` on a slice (pickedOnSlice), or the first seen sample when ray marched. */
    pick(ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): VoxelHit | null {
      if (mode === 'volume') return march(ray, kept);
      let best: VoxelHit | null = null;
      for (const axis of AXES) {
        const mesh = planes.meshes[axis];
        if (!mesh.visible) continue;
        for (const hit of ray.intersectObject(mesh, false)) {
          const voxel = frame.voxelAt(inner.worldToLocal(hit.point.clone()));
          if (!voxel || !(options.pickedOnSlice ?? options.seen)(voxel.x, voxel.y, voxel.z) || !kept(hit.point)) continue;
          if (!best || hit.distance < best.distance) best = { distance: hit.distance, point: hit.point.clone(), kind: 'voxel', voxel };
          break;
        }
      }
      return best && { ...best, ...voxelPlace(best.voxel) };
    },
    attach: (): void => planes.attach(options.stage.link),
    dispose(): void {
      planes.dispose();
      edges.dispose();
      edgeMaterial.dispose();
      marched?.dispose();
    },
  };
}
