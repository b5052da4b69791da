/**
 * @module vr-mode-options
 * What the VR mode is given by the page: the subject it shows, and the page's own ways to
 * change parameters, follow the room, step a look, change a layer, mark, work the time
 * controls, and name a frame's unit. Each is the page's path, so a change in VR is the page's change.
 */
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import type { ParameterSchema } from '../../core/wire/wire-types.ts';
import type { ChangeMode } from '../panels/params/param-field.ts';
import type { Stage } from '../stage/stage.ts';
import type { VrLayerRow } from './vr-layer-list.ts';
import type { VrLook } from './vr-panel.ts';
import type { VrMarks } from './vr-mark-tools.ts';
import type { VrEdits } from './vr-edit-tools.ts';
import type { VrSteps } from './vr-time.ts';

/** What the page shows, as the VR panel needs it. */
export interface VrSubject {
  id: string;
  title: string;
  schema: ParameterSchema | null;
  values: Record<string, unknown>;
}

export interface VrModeOptions {
  stage: Stage;
  /** A panel edit in VR: handled exactly like the same edit on the page. */
  change(values: Record<string, unknown>, mode: ChangeMode): void;
  /** The line the page shows about the room or the request ('' when none). */
  status(): { text: string; tone: 'warn' | 'error' };
  follow: { enabled(): boolean; set(on: boolean): void };
  /** The session began or ended (the page asks again, with or without the triangle budget). */
  presentingChanged(presenting: boolean): void;
  /** The shown result's look, and a step of one of its settings from the panel (as the page's control would). */
  look?: { current(): VrLook | null; step(setting: 'colormap' | 'mode'): void };
  /** The room's layers, and a change of one from the panel (as the page's layer list would). */
  layers?: { rows(): VrLayerRow[]; change(id: string, change: LayerDisplay, mode: ChangeMode): void };
  /** The page's annotation tools: chosen on the panel, a trigger on the specimen places. */
  marks?: VrMarks;
  /** The page's segmentation tools: a trigger off the panel edits a labels layer with them. */
  edits?: VrEdits;
  /** The shown result's time controls (null when it has no time axis): the panel's time row works them. */
  time?(): VrSteps | null;
  /** The physical unit of the frame of a point picked on `layer` (undefined: the room's); null while none is known. */
  unitOf?(layer: string | undefined): string | null;
}
