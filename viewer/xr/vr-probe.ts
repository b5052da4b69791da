/**
 * @module vr-probe
 * What a test or a benchmark reads of the VR session (`window.vitrineVr`): whether it is
 * presenting, the time from pressing "Enter VR" to the first frame with the specimen placed,
 * recent frame times, the specimen's scale, what the time row reads, the scale bar and where a
 * controller points in physical units, the marks the panel lists, and where a slider's track, a
 * button or a point of the specimen lies in the room (so an emulated controller can be aimed at
 * it). It changes nothing.
 */
import * as THREE from 'three';
import type { MarkTool } from '../layers/marks/mark-placer.ts';
import type { VrEditControl } from './vr-edit-tools.ts';
import type { VrSessionParts } from './vr-session-parts.ts';
import type { VrTimeControl } from './vr-time.ts';

/** What the probe reads of the VR mode (vr-mode.ts), without depending on it. */
export interface ProbedVr {
  readonly presenting: boolean;
  readonly root: THREE.Object3D;
  readonly status: string;
  readonly framebuffer: [number, number] | null;
  readonly parts: Pick<VrSessionParts, 'panel' | 'marks' | 'edits' | 'time' | 'physical'> | null;
}

/** Frame intervals kept. */
const KEPT = 240;

export interface VrProbeState {
  presenting: boolean;
  /** From "Enter VR" to the first session frame with the specimen on the table, ms; null before. */
  firstSpecimenFrameMs: number | null;
  /** Intervals between the latest session frames, ms. */
  frameTimes: number[];
  frames: number;
  scale: number;
  /** The specimen root's position in the room. */
  position: [number, number, number];
  /** The panel's status line ("A peer is computing…"). */
  status: string;
  /** The session's framebuffer in pixels (both eyes), null outside a session. */
  framebuffer: [number, number] | null;
  /** The time row's readout ("t 2 / 3"), '' while the row is hidden. */
  timeReadout: string;
  /** The scale bar by the specimen (its label, length in physical units and in metres), null while none stands. */
  scaleBar: { label: string; length: number; metres: number; visible: boolean } | null;
  /** Where a controller points, as the panel says it, null before it is known. */
  pointer: { kind: 'ray' | 'tip'; position: [number, number, number]; unit: string | null; text: string } | null;
  /** The marks the panel lists, newest first, as it writes them (each line, and who made it; '' when unknown). */
  marks: { text: string; author: string }[];
}

declare global {
  interface Window {
    vitrineVr?: {
      state(): VrProbeState;
      /** A point of slider `name`'s track in the room: `fraction` 0 is its left end, 1 its right. */
      sliderPoint(name: string, fraction: number): [number, number, number] | null;
      /** The centre of the panel's "Exit VR" or "Follow room" button in the room (null before a session). */
      buttonPoint(button: 'exit' | 'follow' | 'colormap' | 'mode'): [number, number, number] | null;
      /** A point of layer `id`'s visibility switch, or of its opacity slider at `fraction` (0 left, 1 right). */
      layerPoint(id: string, control: 'visible' | 'opacity', fraction?: number): [number, number, number] | null;
      /** The centre of the panel's button for annotation tool `tool` (null without a session or the tools). */
      markToolPoint(tool: MarkTool): [number, number, number] | null;
      /** The centre of the panel's segmentation control `control` (a tool, or Next, Apply, Undo; null without a session or the tools). */
      editPoint(control: VrEditControl): [number, number, number] | null;
      /** A time row button's centre, or a point of its bar at `fraction` (0 left, 1 right); null while the row is hidden. */
      timePoint(control: VrTimeControl, fraction?: number): [number, number, number] | null;
      /** Where a point of the room's frame (the specimen's coordinates) lies in the headset's room now. */
      inRoom(point: [number, number, number]): [number, number, number];
    };
  }
}

/** A point of a panel component in the room: `x` across it, -0.5 at its left edge to 0.5 at its right. */
function pointOn(component: THREE.Object3D | undefined, x: number): [number, number, number] | null {
  if (!component) return null;
  component.updateWorldMatrix(true, false);
  return new THREE.Vector3(x, 0, 0).applyMatrix4(component.matrixWorld).toArray() as [number, number, number];
}

function barOf(physical: VrSessionParts['physical'] | undefined): VrProbeState['scaleBar'] {
  const bar = physical?.state.bar;
  return bar ? { label: bar.label, length: bar.value, metres: bar.metres, visible: physical!.bar.group.visible } : null;
}

export class VrProbe {
  #enteredAt: number | null = null;
  #firstSpecimenFrameMs: number | null = null;
  #last = 0;
  #frames = 0;
  #times: number[] = [];

  install(mode: ProbedVr): void {
    window.vitrineVr = {
      state: () => ({
        presenting: mode.presenting,
        firstSpecimenFrameMs: this.#firstSpecimenFrameMs,
        frameTimes: [...this.#times],
        frames: this.#frames,
        scale: mode.root.scale.x,
        position: mode.root.position.toArray() as [number, number, number],
        status: mode.status,
        framebuffer: mode.framebuffer,
        timeReadout: mode.parts?.time.readout ?? '',
        scaleBar: barOf(mode.parts?.physical),
        pointer: mode.parts?.physical.state.pointer ?? null,
        marks: (mode.parts?.marks?.list.shown ?? []).map(({ text, author }) => ({ text, author })),
      }),
      sliderPoint: (name, fraction) => pointOn(mode.parts?.panel.track(name), fraction - 0.5),
      buttonPoint: (button) => pointOn(mode.parts?.panel.buttons[button], 0),
      layerPoint: (id, control, fraction = 0.5) =>
        pointOn(mode.parts?.panel.layers.control(id, control), control === 'opacity' ? fraction - 0.5 : 0),
      markToolPoint: (tool) => pointOn(mode.parts?.marks?.button(tool), 0),
      editPoint: (control) => pointOn(mode.parts?.edits?.control(control), 0),
      timePoint: (control, fraction = 0.5) =>
        mode.parts?.time.readout ? pointOn(mode.parts.time.control(control), control === 'bar' ? fraction - 0.5 : 0) : null,
      inRoom: (point) => {
        mode.root.updateWorldMatrix(true, false);
        return mode.root.localToWorld(new THREE.Vector3(...point)).toArray() as [number, number, number];
      },
    };
  }

  /** "Enter VR" was pressed. */
  entering(): void {
    this.#enteredAt = performance.now();
    this.#firstSpecimenFrameMs = null;
    this.#last = 0;
    this.#times = [];
  }

  /** A session frame at `now`; `withSpecimen`: the specimen is placed. */
  frame(now: number, withSpecimen: boolean): void {
    this.#frames++;
    if (this.#last) this.#times.push(now - this.#last);
    if (this.#times.length > KEPT) this.#times.shift();
    this.#last = now;
    if (withSpecimen && this.#firstSpecimenFrameMs === null && this.#enteredAt !== null) this.#firstSpecimenFrameMs = now - this.#enteredAt;
  }
}
