/**
 * @module volume-slices
 * A volume as three orthogonal slices through it, inside its bounding box, each with a
 * slider, and a colour map picker; or, switched to the `volume` view, drawn whole by ray
 * marching (volume-raymarch.ts) with a density control. Shape and spacing are in C order
 * ([z, y, x]); the volume's x runs along the scene's X axis, y along Y, z along Z. Colours
 * follow a window (colour-bar.ts) that opens on the histogram's defaults (window-level.ts).
 */
import * as THREE from 'three';
import type { VolumeData } from '../../../client/decoded-types.ts';
import type { RoomView } from '../../../client/wire-types.ts';
import { voxelAt, volumeCentre, volumeFrameOf, type Triple } from '../../../sdk/volume-frame.ts';
import { h } from '../dom.ts';
import { barChangeOf, barSettingsOf, createColourBar } from './colour-bar.ts';
import { colormapTable, finiteRange, type ColormapName } from './colormaps.ts';
import type { StageContent } from './stage.ts';
import { createRaymarchedVolume, RAYMARCH_MAX_EDGE, RAYMARCH_MAX_VOXELS, type RaymarchedVolume } from './volume-raymarch.ts';
import { defaultWindow } from './window-level.ts';

type Axis = 'x' | 'y' | 'z';

/** A volume on the stage, with its slice controls. */
export interface VolumeContent extends StageContent {
  /** Sliders and the colour bar, for the stage's overlay. */
  panel: HTMLElement;
  /** What can be pointed at (the visible slices), for the value readout. */
  pickables(): THREE.Object3D[];
  /** The physical point `(x, y, z)` (the volume's spacing and origin applied) at `local`, a point in the content's own space. */
  physicalAt(local: THREE.Vector3): Triple;
  /** The voxel at `local` (a point in the content's own space) and its value; null outside. */
  voxelAt(local: THREE.Vector3): { x: number; y: number; z: number; value: number } | null;
}

/**
 * Builds the three slices. `onChange` is called after a slider or the colour map changed the
 * picture, so the stage can redraw.
 */
export function createVolumeSlices(volume: VolumeData, onChange: () => void): VolumeContent {
  const shape = volume.shape.length === 3 ? volume.shape : [1, ...volume.shape.slice(-2)];
  const [d, hgt, w] = [shape[0] ?? 1, shape[1] ?? 1, shape[2] ?? 1];
  const [sz, sy, sx] = volume.spacing?.length === 3 ? volume.spacing : [1, 1, 1];
  const size = { x: w * sx!, y: hgt * sy!, z: d * sz! };
  const scale = 2 / Math.max(size.x, size.y, size.z);
  // The box is drawn centred on the content's origin, `scale` scene units per physical unit;
  // where a point of it lies in physical space is the shared volume frame's to say.
  const frame = volumeFrameOf({ shape, spacing: volume.spacing, origin: volume.origin });
  const centre = volumeCentre(frame);
  const physicalAt = (local: THREE.Vector3): Triple => [local.x / scale + centre[0], local.y / scale + centre[1], local.z / scale + centre[2]];
  const dims = { x: size.x * scale, y: size.y * scale, z: size.z * scale };
  const [min, max] = volume.value_range ?? finiteRange(volume.data);
  const span = max - min || 1;
  const data = volume.data;
  const opening = defaultWindow(data, min, max);
  let [low, high] = [opening.low, opening.high];
  let mapName: ColormapName = 'viridis';
  let table = colormapTable(mapName);
  /** Colour-map index (0..255) under which a voxel is transparent: past the background, at least a sliver. */
  let floor = Math.max(3, Math.min(255, Math.round(((opening.floor - low) / (high - low || 1)) * 255)));
  const index = { x: Math.floor(w / 2), y: Math.floor(hgt / 2), z: Math.floor(d / 2) };
  /** True while a room's view is being applied: those changes are not the user's to share. */
  let applying = false;
  const share = (change: RoomView): void => {
    if (!applying) content.onViewChange?.(change);
  };
  const count = { x: w, y: hgt, z: d };

  const group = new THREE.Group();
  const edges = new THREE.EdgesGeometry(new THREE.BoxGeometry(dims.x, dims.y, dims.z));
  const edgeMaterial = new THREE.LineBasicMaterial({ color: 0x4b5d75 });
  group.add(new THREE.LineSegments(edges, edgeMaterial));

  // Texture size per axis: the plane normal to x shows (z, y), to y shows (x, z), to z shows (x, y).
  const texSize: Record<Axis, [number, number]> = { x: [d, hgt], y: [w, d], z: [w, hgt] };
  const sample = (x: number, y: number, z: number): number => {
    const k = Math.max(0, Math.min(255, Math.round(((data[(z * hgt + y) * w + x]! - low) / (high - low || 1)) * 255)));
    return k * 3;
  };
  const slices = {} as Record<Axis, { texture: THREE.DataTexture; mesh: THREE.Mesh; pixels: Uint8Array<ArrayBuffer> }>;

  const fill = (axis: Axis): void => {
    const { texture, pixels } = slices[axis];
    const [tw, th] = texSize[axis];
    const i = index[axis];
    let o = 0;
    for (let v = 0; v < th; v++) {
      for (let u = 0; u < tw; u++) {
        const k = axis === 'x' ? sample(i, v, u) : axis === 'y' ? sample(u, i, v) : sample(u, v, i);
        pixels[o] = table[k]!;
        pixels[o + 1] = table[k + 1]!;
        pixels[o + 2] = table[k + 2]!;
        // Values under the floor (empty space, noise) are see-through, so slices do not hide each other.
        pixels[o + 3] = k < floor * 3 ? 0 : 255;
        o += 4;
      }
    }
    texture.needsUpdate = true;
  };
  const place = (axis: Axis): void => {
    const t = count[axis] > 1 ? (index[axis] + 0.5) / count[axis] - 0.5 : 0;
    slices[axis].mesh.position[axis] = t * dims[axis];
  };

  for (const axis of ['x', 'y', 'z'] as const) {
    const [tw, th] = texSize[axis];
    const pixels = new Uint8Array(tw * th * 4);
    const texture = new THREE.DataTexture(pixels, tw, th, THREE.RGBAFormat);
    texture.colorSpace = THREE.SRGBColorSpace;
    texture.magFilter = THREE.NearestFilter;
    const geometry =
      axis === 'x' ? new THREE.PlaneGeometry(dims.z, dims.y) : axis === 'y' ? new THREE.PlaneGeometry(dims.x, dims.z) : new THREE.PlaneGeometry(dims.x, dims.y);
    const material = new THREE.MeshBasicMaterial({ map: texture, side: THREE.DoubleSide, toneMapped: false, alphaTest: 0.5 });
    const mesh = new THREE.Mesh(geometry, material);
    if (axis === 'x') mesh.rotation.y = -Math.PI / 2;
    if (axis === 'y') mesh.rotation.x = Math.PI / 2;
    group.add(mesh);
    slices[axis] = { texture, mesh, pixels };
    fill(axis);
    place(axis);
  }

  const sliders = (['x', 'y', 'z'] as const).map((axis) => {
    const value = h('output', { class: 'slice-value' }, `${index[axis]}`);
    const input = h('input', {
      type: 'range',
      class: 'slider',
      min: 0,
      max: Math.max(0, count[axis] - 1),
      step: 1,
      value: index[axis],
      'aria-label': `${axis} slice`,
      'data-axis': axis,
    });
    input.addEventListener('input', () => {
      index[axis] = Number(input.value);
      value.textContent = input.value;
      fill(axis);
      place(axis);
      onChange();
    });
    return h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, axis), input, value);
  });

  // The whole volume, ray marched: built on first use.
  let raymarch: RaymarchedVolume | null = null;
  const fitsRaymarch = Math.max(w, hgt, d) <= RAYMARCH_MAX_EDGE && w * hgt * d <= RAYMARCH_MAX_VOXELS;
  let density = 1;
  const densityValue = h('output', { class: 'slice-value' }, density.toFixed(2));
  const densityInput = h('input', { type: 'range', class: 'slider', min: 1, max: 100, step: 1, value: 20, 'aria-label': 'density', 'data-axis': 'density' });
  densityInput.addEventListener('input', () => {
    density = Number(densityInput.value) / 20;
    densityValue.textContent = density.toFixed(2);
    raymarch?.setDensity(density);
    onChange();
    share({ opacity: Number(densityInput.value) / 100 });
  });
  const densityRow = h(
    'label',
    { class: 'slice-row', title: 'How much each sample absorbs' },
    h('span', { class: 'slice-axis' }, 'alpha'),
    densityInput,
    densityValue,
  );
  densityRow.hidden = true;
  const title = h('div', { class: 'slice-title' }, 'Slices');
  const viewPicker = h('select', { class: 'select small', 'aria-label': 'volume view', 'data-axis': 'view' });
  viewPicker.appendChild(h('option', { value: 'slices' }, 'slices'));
  viewPicker.appendChild(
    h('option', fitsRaymarch ? { value: 'volume' } : { value: 'volume', disabled: true, title: `only up to ${RAYMARCH_MAX_EDGE} samples per edge` }, 'volume'),
  );
  viewPicker.addEventListener('change', () => {
    const whole = viewPicker.value === 'volume';
    if (whole && !raymarch) {
      raymarch = createRaymarchedVolume(data, { w, h: hgt, d }, { min, span }, dims, table);
      raymarch.setWindow((low - min) / span, (high - min) / span);
      raymarch.setFloor(floor);
      raymarch.setDensity(density);
      group.add(raymarch.mesh);
    }
    if (raymarch) raymarch.mesh.visible = whole;
    for (const axis of ['x', 'y', 'z'] as const) slices[axis].mesh.visible = !whole;
    sliders.forEach((row) => (row.hidden = whole));
    densityRow.hidden = !whole;
    title.textContent = whole ? 'Volume' : 'Slices';
    onChange();
    share({ mode: whole ? 'volume' : 'slices' });
  });
  const colourBar = createColourBar({
    range: [min, max],
    initial: { map: 'viridis', low, high },
    onChange(state) {
      const change = barChangeOf({ low, high, map: mapName }, state);
      mapName = state.map;
      table = colormapTable(state.map);
      [low, high] = [state.low, state.high];
      for (const axis of ['x', 'y', 'z'] as const) fill(axis);
      raymarch?.setColormap(table);
      raymarch?.setWindow((low - min) / span, (high - min) / span);
      onChange();
      share(change);
    },
  });
  const floorValue = h('output', { class: 'slice-value' }, `${Math.round((floor / 255) * 100)}%`);
  const floorInput = h('input', {
    type: 'range',
    class: 'slider',
    min: 0,
    max: 255,
    step: 1,
    value: floor,
    'aria-label': 'transparency floor',
    'data-axis': 'floor',
  });
  floorInput.addEventListener('input', () => {
    floor = Number(floorInput.value);
    floorValue.textContent = `${Math.round((floor / 255) * 100)}%`;
    for (const axis of ['x', 'y', 'z'] as const) fill(axis);
    raymarch?.setFloor(floor);
    onChange();
  });
  const panel = h(
    'div',
    { class: 'slice-panel', 'data-testid': 'slice-panel' },
    title,
    ...sliders,
    h(
      'label',
      { class: 'slice-row', title: 'Values below this share of the range are transparent' },
      h('span', { class: 'slice-axis' }, 'floor'),
      floorInput,
      floorValue,
    ),
    colourBar.element,
    densityRow,
    h('label', { class: 'slice-row' }, h('span', { class: 'slice-axis' }, 'view'), viewPicker),
  );

  const applyView = (view: RoomView): void => {
    applying = true;
    try {
      const bar = barSettingsOf(view);
      if (Object.keys(bar).length > 0) colourBar.set(bar);
      if (typeof view.opacity === 'number' && Number.isFinite(view.opacity)) {
        densityInput.value = String(Math.max(1, Math.min(100, Math.round(view.opacity * 100))));
        densityInput.dispatchEvent(new Event('input'));
      }
      if ((view.mode === 'slices' || (view.mode === 'volume' && fitsRaymarch)) && viewPicker.value !== view.mode) {
        viewPicker.value = view.mode;
        viewPicker.dispatchEvent(new Event('change'));
      }
    } finally {
      applying = false;
    }
  };

  const content: VolumeContent = {
    object: group,
    panel,
    applyView,
    pickables: () => (['x', 'y', 'z'] as const).map((axis) => slices[axis].mesh).filter((mesh) => mesh.visible),
    physicalAt,
    voxelAt(local) {
      const voxel = voxelAt(frame, physicalAt(local));
      if (!voxel) return null;
      const [x, y, z] = voxel;
      return { x, y, z, value: data[(z * hgt + y) * w + x]! };
    },
    dispose() {
      edges.dispose();
      edgeMaterial.dispose();
      for (const { texture, mesh } of Object.values(slices)) {
        texture.dispose();
        mesh.geometry.dispose();
        (mesh.material as THREE.Material).dispose();
      }
      raymarch?.dispose();
    },
  };
  return content;
}
