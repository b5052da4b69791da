/**
 * @module page-vr
 * The VR mode wired to the page: a panel edit in VR is the page's own edit (the page's panel
 * takes the values and the page requests, debounced while dragging), the headset's status
 * line is the page's (the room follower's "A peer is computing…", else "Computing…" while a
 * request runs), "Follow room" is the page's switch, the look buttons work the page's colour
 * map and view pickers (pageLook below), a layer's visibility or opacity is the page's layer
 * list's change (room/room-scene.ts), the time row works the time controls in the page's
 * tool area (time/time-controls.ts), the annotation tools are the page's (a mark placed in VR
 * goes to the host as a click's does), so are the segmentation tools (an edit made in VR too),
 * and the "Enter VR" button sits in the top bar.
 */
import type { SpecimenMetadata } from '../core/wire/wire-types.ts';
import type { Layout } from './layout.ts';
import type { AnnotationPanel } from './panels/annotation-panel.ts';
import type { EditPanel } from './panels/edit-panel.ts';
import type { ParamPanel } from './panels/params/param-panel.ts';
import type { ChangeMode } from './panels/params/param-field.ts';
import type { RoomFollower } from './room/room-follower.ts';
import type { RoomSceneView } from './room/room-scene.ts';
import type { Stage } from './stage/stage.ts';
import { timeControlsIn } from './time/time-controls.ts';
import { VrMode } from './xr/vr-mode.ts';
import type { VrLook } from './xr/vr-panel.ts';

export interface PageVrHooks {
  stage: Stage;
  follower: RoomFollower;
  /** The room's scene on the page (null when it cannot draw). */
  scene: RoomSceneView | null;
  /** The page's annotation tools (null when it cannot draw). */
  marks: AnnotationPanel | null;
  /** The page's segmentation tools (null when it cannot draw). */
  edits: EditPanel | null;
  layout: Layout;
  /** The page's parameter panel and subject now. */
  panel(): ParamPanel | null;
  current(): SpecimenMetadata | null;
  /** Requests the current subject with the panel's values, as a page edit of `mode` does. */
  request(mode: ChangeMode): void;
  /** The physical unit of a picked layer's frame (undefined: the room's), as the page's readout and scale bar say it. */
  unitOf(layer: string | undefined): string | null;
}

/** The next option of `select` that is not disabled, after the chosen one (wrapping round). */
function nextOption(select: HTMLSelectElement): string {
  const options = [...select.options].filter((o) => !o.disabled);
  const at = options.findIndex((o) => o.value === select.value);
  return options[(at + 1) % options.length]?.value ?? select.value;
}

/**
 * The VR panel's look controls over the page's own: the colour map picker and the volume view
 * picker of the shown result's tool panel. A step from the headset changes the page's control
 * and fires its `change`, so it is the page's change in every way (a followed room gets it).
 */
function pageLook(tools: HTMLElement): { current(): VrLook | null; step(setting: 'colormap' | 'mode'): void } {
  const colormap = (): HTMLSelectElement | null => tools.querySelector('[data-testid=colour-map]');
  const mode = (): HTMLSelectElement | null => tools.querySelector('select[data-axis=view]');
  return {
    current() {
      const map = colormap();
      return map ? { colormap: map.value, mode: mode()?.value ?? null } : null;
    },
    step(setting) {
      const select = setting === 'colormap' ? colormap() : mode();
      if (!select) return;
      const next = nextOption(select);
      if (next === select.value) return;
      select.value = next;
      select.dispatchEvent(new Event('change'));
    },
  };
}

export function createPageVr(hooks: PageVrHooks): VrMode {
  const vr = new VrMode({
    stage: hooks.stage,
    change: (values, mode) => {
      hooks.panel()?.set(values);
      hooks.request(mode);
    },
    status: () => {
      const peer = hooks.follower.status;
      if (peer) return { text: peer, tone: 'warn' };
      return { text: hooks.layout.stagePane.classList.contains('busy') ? 'Computing…' : '', tone: 'warn' };
    },
    follow: { enabled: () => hooks.follower.enabled, set: (on) => hooks.follower.toggle(on) },
    look: pageLook(hooks.layout.stageTools),
    marks: hooks.marks ?? undefined,
    edits: hooks.edits ?? undefined,
    time: () => timeControlsIn(hooks.layout.stageTools),
    unitOf: hooks.unitOf,
    layers: { rows: () => hooks.scene?.vrRows() ?? [], change: (id, change, mode) => hooks.scene?.change(id, change, mode === 'commit') },
    // A dynamic mesh is asked for again: with the triangle budget in VR, without it after; the scene's meshes too.
    presentingChanged: () => {
      const current = hooks.current();
      if (current?.is_dynamic && current.type === 'mesh') hooks.request('commit');
      hooks.scene?.refresh();
    },
  });
  hooks.layout.topbar.append(vr.button);
  return vr;
}
