/**
 * @module vr-session-parts
 * What only a VR session needs, loaded when "Enter VR" is first pressed (its own chunk of the
 * viewer bundle, so a desktop page never downloads the panel library, its font and the
 * controller model loaders): the panel, the hands with their pointers, and grabbing.
 */
import { reversePainterSortStable } from '@pmndrs/uikit';
import type * as THREE from 'three';
import { GrabControls } from './grab-controls.ts';
import { PanelPointer } from './panel-pointer.ts';
import { VrInputs } from './vr-inputs.ts';
import { VrPanel, type VrPanelActions } from './vr-panel.ts';

export interface VrSessionParts {
  panel: VrPanel;
  inputs: VrInputs;
}

/** Makes the panel and the hands (added to `scene`); `root` is what grabbing moves. */
export function createVrSessionParts(
  renderer: THREE.WebGLRenderer,
  scene: THREE.Scene,
  root: THREE.Object3D,
  actions: VrPanelActions,
  scaleBy: (factor: number) => void,
): VrSessionParts {
  const panel = new VrPanel(actions);
  const grab = new GrabControls(root);
  const inputs = new VrInputs({ renderer, scene, grab, pointer: (index) => new PanelPointer(panel.root, index), scaleBy });
  return { panel, inputs };
}

/** uikit's transparent sort (its panels are coplanar and drawn in order). */
export { reversePainterSortStable };
