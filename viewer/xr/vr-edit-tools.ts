/**
 * @module vr-edit-tools
 * The segmentation tools in VR: a row of the panel choosing what the trigger does on a labels
 * layer (Off, Merge, Split, Brush; the page's tools, so a choice here is the page's), the
 * split's "Next" and "Apply", and "Undo" of this page's last edit, with the page's line saying
 * what to aim at next. A trigger the panel did not take picks along the controller's ray as a
 * click on the page does. With the brush, a sphere of the brush's radius stands where the ray
 * meets a labels layer, so the wearer sees what a trigger would paint. A page that may only look
 * at its room shows no tool here, only the line saying why.
 */
import { Container, Text } from '@pmndrs/uikit';
import * as THREE from 'three';
import type { EditTool } from '../layers/labels/edit-tools.ts';
import type { EditPanel } from '../panels/edit-panel.ts';
import type { StagePick } from '../stage/stage-pick.ts';
import { VR_THEME as T } from './vr-theme.ts';
import { textButton } from './vr-widgets.ts';

/** The page's segmentation tools as VR works them. */
export type VrEdits = Pick<EditPanel, 'tools' | 'status' | 'writable' | 'choose' | 'pickAlong' | 'undo'>;

/** A control of the row: a tool's button, or the split's Next and Apply, or Undo. */
export type VrEditControl = EditTool | 'next' | 'apply' | 'undo';

const TOOLS: { tool: EditTool; text: string }[] = [
  { tool: 'none', text: 'Off' },
  { tool: 'merge', text: 'Merge' },
  { tool: 'split', text: 'Split' },
  { tool: 'brush', text: 'Brush' },
];

export class VrEditTools {
  readonly root = new Container({ flexDirection: 'column', gap: 6, width: '100%' });
  /** The brush where the ray meets a labels layer (in the scene, hidden without the brush). */
  readonly sphere = new THREE.Mesh(
    new THREE.SphereGeometry(1, 24, 16),
    new THREE.MeshBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.35, depthWrite: false }),
  );
  readonly #edits: VrEdits;
  readonly #buttons = new Map<EditTool, Container>();
  readonly #controls = new Map<VrEditControl, Container>();
  readonly #hint = new Text({ text: '', fontSize: T.smallFont, color: T.muted });
  /** The rows of controls, hidden while the page may only look. */
  readonly #rows: Container[];
  #shown = '';

  constructor(edits: VrEdits) {
    this.#edits = edits;
    this.sphere.name = 'vr-brush';
    this.sphere.visible = false;
    const row = new Container({ flexDirection: 'row', gap: 8, alignItems: 'center' });
    row.add(new Text({ text: 'Labels', fontSize: T.fontSize, color: T.text, marginRight: 8 }));
    for (const { tool, text } of TOOLS) {
      const button = textButton(text, () => edits.choose(tool));
      this.#buttons.set(tool, button);
      this.#controls.set(tool, button);
      row.add(button);
    }
    const more = new Container({ flexDirection: 'row', gap: 8 });
    const steps: [VrEditControl, Container][] = [
      ['next', textButton('Next', () => edits.tools.nextGroup())],
      ['apply', textButton('Apply', () => edits.tools.applySplit())],
      ['undo', textButton('Undo', () => void edits.undo())],
    ];
    for (const [control, button] of steps) this.#controls.set(control, button);
    more.add(...steps.map(([, button]) => button));
    this.#rows = [row, more];
    this.root.add(row, more, this.#hint);
  }

  /** The button of `control` (automation aims at it). */
  control(control: VrEditControl): Container | undefined {
    return this.#controls.get(control);
  }

  /** A trigger the panel did not take, with the controller's ray: true when a tool used it. */
  trigger(ray: THREE.Raycaster): boolean {
    return this.#edits.pickAlong(ray);
  }

  /**
   * Once per frame: the page's tool and line shown; the brush sphere placed where `pick` (the
   * first hand's ray off the panel, picked on the stage) meets a labels layer.
   */
  update(pick: StagePick | null): void {
    const { tool } = this.#edits.tools;
    const onLabels = tool === 'brush' && pick?.label !== undefined && pick.voxelSize !== undefined;
    this.sphere.visible = onLabels;
    if (onLabels) {
      this.sphere.position.copy(pick.centre ?? pick.point);
      this.sphere.scale.setScalar(Math.max(0.5, this.#edits.tools.brush.radius) * pick.voxelSize!);
    }
    const status = this.#edits.status;
    const { writable } = this.#edits;
    const key = `${tool}:${writable}:${status}`;
    if (key === this.#shown) return;
    this.#shown = key;
    for (const row of this.#rows) row.setProperties({ display: writable ? 'flex' : 'none' });
    for (const [each, button] of this.#buttons) button.setProperties({ backgroundColor: each === tool ? T.accentDim : T.surface });
    const text = status.replace(/[‘’“”]/g, "'").replace(/…/g, '...');
    this.#hint.setProperties({ text, display: text ? 'flex' : 'none' });
  }
}
