/**
 * @module vr-session-parts
 * What only a VR session needs, loaded when "Enter VR" is first pressed (its own chunk of the
 * viewer bundle, so a desktop page never downloads the panel library, its font and the
 * controller model loaders): the panel, the hands with their pointers, grabbing, the time row,
 * the annotation tools when the page has them (a trigger off the panel places a mark), and the
 * scale bar with where a controller points, in physical units (vr-physical.ts).
 */
import { reversePainterSortStable } from '@pmndrs/uikit';
import type * as THREE from 'three';
import { GrabControls } from './grab-controls.ts';
import { PanelPointer } from './panel-pointer.ts';
import { VrInputs } from './vr-inputs.ts';
import { VrMarkTools, type VrMarks } from './vr-mark-tools.ts';
import { VrEditTools, type VrEdits } from './vr-edit-tools.ts';
import { VrPanel, type VrPanelActions } from './vr-panel.ts';
import { VrTime } from './vr-time.ts';
import { VrPhysical, type VrPhysicalSource } from './vr-physical.ts';

export interface VrSessionParts {
  panel: VrPanel;
  inputs: VrInputs;
  marks: VrMarkTools | null;
  edits: VrEditTools | null;
  time: VrTime;
  physical: VrPhysical;
}

/** Makes the panel and the hands (added to `scene`); `root` is what grabbing moves; `physicalSource` gives the units and picks. */
export function createVrSessionParts(
  renderer: THREE.WebGLRenderer,
  scene: THREE.Scene,
  root: THREE.Object3D,
  actions: VrPanelActions,
  scaleBy: (factor: number) => void,
  physicalSource: VrPhysicalSource,
  pageMarks?: VrMarks,
  pageEdits?: VrEdits,
): VrSessionParts {
  const marks = pageMarks ? new VrMarkTools(pageMarks) : null;
  const edits = pageEdits ? new VrEditTools(pageEdits) : null;
  if (edits) scene.add(edits.sphere);
  const time = new VrTime();
  const physical = new VrPhysical(physicalSource);
  const panel = new VrPanel(actions, [time.root, ...(marks ? [marks.root] : []), ...(edits ? [edits.root] : []), physical.root]);
  const grab = new GrabControls(root);
  const inputs = new VrInputs({
    renderer,
    scene,
    grab,
    pointer: (index) => new PanelPointer(panel.root, index),
    scaleBy,
    trigger: (ray) => (marks?.trigger(ray) ?? false) || (edits?.trigger(ray) ?? false),
  });
  return { panel, inputs, marks, edits, time, physical };
}

/** uikit's transparent sort (its panels are coplanar and drawn in order). */
export { reversePainterSortStable };
