/**
 * @module value-readout
 * The value under the cursor on a volume's slices: as the pointer moves over the stage, the
 * slice it points at gives the voxel (x, y, z indices) and its sample, shown in the volume's
 * panel. Off the slices it says so. Listens on the stage's canvas until disposed.
 */
import * as THREE from 'three';
import { h } from '../dom.ts';
import { formatValue } from './colour-bar.ts';
import type { Stage } from './stage.ts';
import type { VolumeContent } from './volume-slices.ts';

export interface ValueReadout {
  element: HTMLElement;
  dispose(): void;
}

const IDLE = 'point at a slice';

/** Shows the sample under the cursor for `volume` while it is on `stage`. */
export function attachValueReadout(stage: Stage, volume: VolumeContent): ValueReadout {
  const text = h('output', { class: 'value-readout-text', 'data-testid': 'value-readout' }, IDLE);
  const element = h(
    'div',
    { class: 'slice-row value-readout', title: 'The voxel under the cursor and its value' },
    h('span', { class: 'slice-axis' }, 'value'),
    text,
  );
  const local = new THREE.Vector3();
  const onMove = (event: PointerEvent): void => {
    const hit = stage.pick(event.clientX, event.clientY, volume.pickables());
    const voxel = hit ? volume.voxelAt(volume.object.worldToLocal(local.copy(hit.point))) : null;
    text.textContent = voxel ? `${formatValue(voxel.value)} at x ${voxel.x}, y ${voxel.y}, z ${voxel.z}` : IDLE;
    text.dataset.value = voxel ? String(voxel.value) : '';
  };
  const onLeave = (): void => {
    text.textContent = IDLE;
    text.dataset.value = '';
  };
  stage.canvas.addEventListener('pointermove', onMove);
  stage.canvas.addEventListener('pointerleave', onLeave);
  return {
    element,
    dispose() {
      stage.canvas.removeEventListener('pointermove', onMove);
      stage.canvas.removeEventListener('pointerleave', onLeave);
    },
  };
}
