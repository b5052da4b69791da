/**
 * @module slice-planes
 * Three orthogonal slices through a volume's drawing box, each a plane whose texture is filled
 * voxel by voxel by the owner's `pixel` function (a colour map through a window, or label
 * colours), with a slider per axis. Textures are sampled nearest: a voxel is a square, and a
 * label id is never blended with its neighbour's. The slices follow the stage's slice point
 * (slice-link.ts): a slider moves it for every volume, and a volume the point lies outside of
 * along an axis hides that slice.
 */
import * as THREE from 'three';
import { h, toolRow } from '../../dom.ts';
import type { SliceLink } from '../../stage/slice-link.ts';
import { AXES, type Axis, type VolumeFrame } from './volume-frame.ts';

/** Writes the RGBA of voxel (x, y, z) at `out[o..o+3]`. */
export type PixelFn = (x: number, y: number, z: number, out: Uint8Array, o: number) => void;

export interface SlicePlaneOptions {
  /** Texels with alpha under this are not drawn. */
  alphaTest: number;
  /** A slice moved or was filled again: the stage should draw. */
  changed(): void;
}

type SlicePlane = ReturnType<typeof slicePlane>;

/**
 * The plane normal to `axis`, `size` texels, hung in the volume's inner frame: its mesh, its
 * texture (sampled nearest) and the pixels the texture shows.
 */
function slicePlane(axis: Axis, [tw, th]: [number, number], frame: VolumeFrame, alphaTest: number) {
  const { dims } = frame;
  const pixels = new Uint8Array(tw * th * 4);
  const texture = new THREE.DataTexture(pixels, tw, th, THREE.RGBAFormat);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.magFilter = THREE.NearestFilter;
  texture.minFilter = THREE.NearestFilter;
  const [width, height] = axis === 'x' ? [dims.z, dims.y] : axis === 'y' ? [dims.x, dims.z] : [dims.x, dims.y];
  const material = new THREE.MeshBasicMaterial({ map: texture, side: THREE.DoubleSide, toneMapped: false, alphaTest });
  // Slices of an upper layer are pulled forward over coplanar slices below (layer-look.ts).
  material.userData.slice = true;
  const mesh = new THREE.Mesh(new THREE.PlaneGeometry(width, height), material);
  if (axis === 'x') mesh.rotation.y = -Math.PI / 2;
  if (axis === 'y') mesh.rotation.x = Math.PI / 2;
  frame.inner.add(mesh);
  return { texture, mesh, pixels };
}

/** A slider of a volume's panel: its row (named `axis`), its input (`label` to a screen reader) and the number beside it. */
export type SliderRow = ReturnType<typeof sliderRow>;

/** A slider row over `range`, showing `shown` beside the slider. */
export function sliderRow(
  axis: string,
  label: string,
  title: string | null,
  range: { min: number; max: number; step: number; value: number },
  shown: string,
) {
  const value = h('output', { class: 'slice-value' }, shown);
  const input = h('input', { type: 'range', class: 'slider', ...range, 'aria-label': label, 'data-axis': axis });
  return { row: toolRow('label', axis, title, input, value), input, value };
}

/** A volume's three slices, their textures filled by `pixel`, with a slider per axis. */
export function createSlicePlanes(frame: VolumeFrame, pixel: PixelFn, options: SlicePlaneOptions) {
  const { count } = frame;
  const index: Record<Axis, number> = { x: Math.floor(count.x / 2), y: Math.floor(count.y / 2), z: Math.floor(count.z / 2) };
  /** Axes along which the stage's slice point lies outside this volume. */
  const outside = new Set<Axis>();
  let shown = true;
  let link: SliceLink | null = null;
  let unlisten: () => void = () => {};
  // Texture size per axis: the plane normal to x shows (z, y), to y shows (x, z), to z shows (x, y).
  const texSize: Record<Axis, [number, number]> = { x: [count.z, count.y], y: [count.x, count.z], z: [count.x, count.y] };
  const planes = {} as Record<Axis, SlicePlane>;

  const fill = (axis: Axis): void => {
    const { texture, pixels } = planes[axis];
    const [tw, th] = texSize[axis];
    const i = index[axis];
    let o = 0;
    for (let v = 0; v < th; v++) {
      for (let u = 0; u < tw; u++) {
        if (axis === 'x') pixel(i, v, u, pixels, o);
        else if (axis === 'y') pixel(u, i, v, pixels, o);
        else pixel(u, v, i, pixels, o);
        o += 4;
      }
    }
    texture.needsUpdate = true;
  };
  const place = (axis: Axis): void => {
    planes[axis].mesh.position[axis] = frame.offsetOf(axis, index[axis]);
    planes[axis].mesh.visible = shown && !outside.has(axis);
  };

  for (const axis of AXES) {
    planes[axis] = slicePlane(axis, texSize[axis], frame, options.alphaTest);
    fill(axis);
    place(axis);
  }

  const outputs = {} as Record<Axis, { input: HTMLInputElement; value: HTMLOutputElement }>;
  const rows = AXES.map((axis) => {
    const range = { min: 0, max: Math.max(0, count[axis] - 1), step: 1, value: index[axis] };
    const { row, input, value } = sliderRow(axis, `${axis} slice`, null, range, `${index[axis]}`);
    outputs[axis] = { input, value };
    input.addEventListener('input', () => {
      index[axis] = Number(input.value);
      value.textContent = input.value;
      outside.delete(axis);
      fill(axis);
      place(axis);
      options.changed();
      link?.set(frame.centreOf(index), self);
    });
    return row;
  });

  /** Goes to the stage's slice point; false when it lies outside this volume on every axis. */
  const follow = (): boolean => {
    const world = link?.worldPoint();
    if (!world) return false;
    frame.inner.updateWorldMatrix(true, false);
    const local = frame.inner.worldToLocal(world);
    let inside = 0;
    for (const axis of AXES) {
      const at = frame.indexAt(axis, local[axis]);
      if (at < 0 || at >= count[axis]) outside.add(axis);
      else {
        outside.delete(axis);
        inside++;
        if (at !== index[axis]) {
          index[axis] = at;
          outputs[axis].input.value = String(at);
          outputs[axis].value.textContent = String(at);
          fill(axis);
        }
      }
      place(axis);
    }
    options.changed();
    return inside > 0;
  };

  const self = {
    meshes: { x: planes.x.mesh, y: planes.y.mesh, z: planes.z.mesh },
    /** One slider row per axis (`input[data-axis=x|y|z]`). */
    rows,
    /** Fills every slice again (the colours changed). */
    refill: (): void => AXES.forEach(fill),
    /** Shows or hides the slices (the volume's view is slices). */
    setShown(on: boolean): void {
      shown = on;
      AXES.forEach(place);
      rows.forEach((row) => (row.hidden = !on));
    },
    /** Follows `next`, the stage's slice point, from now on (once the content hangs in the stage's scene). */
    attach(next: SliceLink): void {
      unlisten();
      link = next;
      unlisten = next.listen((source) => source !== self && follow());
      // A point this volume does not reach (or none yet) is moved to this volume's own centre.
      if (!follow()) {
        outside.clear();
        AXES.forEach(place);
        next.set(frame.centreOf(index), self);
      }
    },
    dispose(): void {
      unlisten();
      for (const { texture, mesh } of Object.values(planes)) {
        texture.dispose();
        mesh.geometry.dispose();
        (mesh.material as THREE.Material).dispose();
      }
    },
  };
  return self;
}
