/**
 * @module stage-content
 * What the stage shows: one `StageContent` per layer (a mesh, points, an image, a volume, a
 * segmentation), and the hooks through which its layer's display and the stage's picking
 * reach it. Every hook is optional: a content that has none is drawn with its layer's
 * opacity, blending and clip planes set on each of its materials (layer-look.ts) and picked
 * by intersecting its meshes.
 */
import type * as THREE from 'three';
import type { LayerBlending, LayerDisplay } from '../../core/wire/scene-types.ts';
import type { RoomView } from '../../core/wire/room-types.ts';
import type { VolumeData } from '../../core/wire/decoded-types.ts';
import type { VoxelBox } from '../../core/wire/edit-types.ts';

/** How a layer is drawn over the layers below it, as the stage hands it to its content. */
export interface LayerLook {
  /** 0..1, times the content's own opacity. */
  opacity: number;
  blending: LayerBlending;
  /** The layer's clip planes in world space (kept up to date by the stage each frame; the array is reused). */
  clipPlanes: THREE.Plane[];
  /** Draw order among transparent things: the layer's place in the list, bottom first. */
  renderOrder: number;
  /** How many layers lie below this one: slices of an upper layer are pulled forward by it, so coplanar slices show the upper one. */
  stack: number;
}

/** What the stage found under a ray in one content. */
export interface ContentHit {
  /** Along the ray, in world units. */
  distance: number;
  /** In world space. */
  point: THREE.Vector3;
  /**
   * `surface` (a mesh), `voxel` (a slice's voxel), `sample` (the first visible sample of a
   * ray-marched volume), `point` (a point cloud).
   */
  kind: 'surface' | 'voxel' | 'sample' | 'point';
  /** The voxel (indices x, y, z) and its sample, for volumes. */
  voxel?: { x: number; y: number; z: number; value: number };
  /** The label id there and its name, for segmentations. */
  label?: { id: number; name: string | null };
  /** A volume's hit voxel's centre in world space: where a mark placed on the voxel goes. */
  centre?: THREE.Vector3;
  /** A volume's voxel edge in world space (along x): how large a brush of r voxels is drawn. */
  voxelSize?: number;
}

/** Something shown on the stage, disposable when replaced. */
export interface StageContent {
  object: THREE.Object3D;
  /** 'front' looks straight at the XY plane (images, slices); 'orbit' from above at an angle. */
  view?: 'front' | 'orbit';
  dispose(): void;
  /** Shows the settings of a room's view this content has (window, colour map, opacity, mode). */
  applyView?(view: RoomView): void;
  /** Set by the viewer: told of each such setting the user changes on this content. */
  onViewChange?: (change: RoomView) => void;
  /** Shows the look its layer gives it (window, colour map, gamma, mode, labels). */
  applyDisplay?(display: LayerDisplay): void;
  /**
   * Set by the viewer: told of each layer setting the user changes on this content that a
   * room's view has no word for (a segmentation's selection).
   */
  onDisplayChange?: (change: LayerDisplay) => void;
  /** Called once its object hangs in the stage's scene (a volume then joins the stage's slice point). */
  attach?(): void;
  /** Takes its layer's opacity, blending, clip planes and draw order (default: on every material, layer-look.ts). */
  applyLook?(look: LayerLook): void;
  /**
   * The nearest thing of this content along `ray` that the user sees (a world-space ray);
   * `kept(point)` is false for a world point its layer's clip planes cut away. Default: its meshes intersected.
   */
  pick?(ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): ContentHit | null;
  /**
   * A segmentation's labels changed by an edit: `next` is the layer's new version, and only its
   * voxels within `box` are taken and drawn again. False when `next` does not fit what is shown
   * (another grid): the owner then loads the layer again.
   */
  relabel?(next: VolumeData, box: VoxelBox): boolean;
}
