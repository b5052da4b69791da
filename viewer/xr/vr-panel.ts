/**
 * @module vr-panel
 * The panel beside the specimen in VR, built with `@pmndrs/uikit`: the specimen's name, a
 * status line ("A peer is computing…", "Computing…", a refusal), one control per parameter
 * (vr-widgets.ts), the look of a scalar result (its colour map and, for a volume, slices or
 * the whole volume: a room that is followed shares them), the room's layers with their
 * visibility and opacity (vr-layer-list.ts), the sections the session adds (the time row,
 * vr-time.ts, and the annotation tools, vr-mark-tools.ts), the scale (−, real size, +),
 * "Follow room" and "Exit VR". It stands to
 * the left of the specimen, turned towards the user.
 */
import { Container, Text } from '@pmndrs/uikit';
import * as THREE from 'three';
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import type { ParameterSchema } from '../../core/wire/wire-types.ts';
import type { ChangeMode } from '../panels/params/param-field.ts';
import { VrLayerList } from './vr-layer-list.ts';
import { buttonText, createVrWidget, panelButton, textButton, type VrWidget } from './vr-widgets.ts';
import { VR_THEME as T } from './vr-theme.ts';

export interface VrPanelActions {
  /** A parameter changed in VR (all current values). */
  change(values: Record<string, unknown>, mode: ChangeMode): void;
  /** Multiply the scale by `factor`, or set real size with null. */
  scale(factor: number | null): void;
  follow(on: boolean): void;
  /** The next colour map, or the other volume view (slices or whole). */
  look(setting: 'colormap' | 'mode'): void;
  /** A layer's visibility or opacity changed in VR. */
  layer(id: string, change: LayerDisplay, mode: ChangeMode): void;
  exit(): void;
}

/** How the shown result looks, as the panel says it; null for results with no such settings. */
export interface VrLook {
  colormap: string;
  /** `slices` or `volume` for a volume; null otherwise. */
  mode: string | null;
}

/** Where the panel stands: left of the specimen, at chest height, turned to face the user. */
const PANEL_POSITION = new THREE.Vector3(-0.62, 1.3, -0.78);

export class VrPanel {
  readonly root: Container;
  readonly #actions: VrPanelActions;
  readonly #title = new Text({ text: 'vitrine', fontSize: 22, color: T.text });
  readonly #status = new Text({ text: '', fontSize: T.smallFont, color: T.warn });
  readonly #scaleText = new Text({ text: '1:1', fontSize: T.fontSize, color: T.accent });
  readonly #followText = buttonText('Follow room: off');
  readonly #fieldsBox = new Container({ flexDirection: 'column', gap: 14, width: '100%' });
  readonly #lookRow = new Container({ flexDirection: 'row', gap: 8, alignItems: 'center', display: 'none' });
  readonly #colormapText = buttonText('');
  readonly #modeText = buttonText('');
  #lookShown = 'null';
  #widgets = new Map<string, VrWidget & { track?: Container }>();
  #values: Record<string, unknown> = {};
  #schemaKey = '';
  #follow: boolean | null = null;
  #statusShown = '';
  /** The room's layers (automation aims at their controls). */
  readonly layers: VrLayerList;
  /** The "Exit VR" and "Follow room" buttons (automation aims at them). */
  readonly buttons: { exit: Container; follow: Container; colormap: Container; mode: Container };

  /** `sections` stand under the layers, above the scale. */
  constructor(actions: VrPanelActions, sections: Container[] = []) {
    this.#actions = actions;
    this.root = new Container({
      pixelSize: T.pixelSize,
      width: 480,
      padding: 22,
      gap: 14,
      flexDirection: 'column',
      backgroundColor: T.panel,
      borderRadius: 18,
      anchorX: 'center',
      anchorY: 'center',
    });
    const scaleRow = new Container({ flexDirection: 'row', gap: 8, alignItems: 'center' });
    scaleRow.add(
      new Text({ text: 'Scale', fontSize: T.fontSize, color: T.text, marginRight: 8 }),
      textButton('-', () => actions.scale(1 / 1.25)),
      textButton('Real size', () => actions.scale(null)),
      textButton('+', () => actions.scale(1.25)),
      this.#scaleText,
    );
    const bottom = new Container({ flexDirection: 'row', gap: 8, justifyContent: 'space-between', width: '100%' });
    this.buttons = {
      exit: textButton('Exit VR', () => actions.exit()),
      follow: panelButton(this.#followText, () => actions.follow(!this.#follow)),
      colormap: panelButton(this.#colormapText, () => actions.look('colormap')),
      mode: panelButton(this.#modeText, () => actions.look('mode')),
    };
    this.#lookRow.add(
      new Text({ text: 'Look', fontSize: T.fontSize, color: T.text, marginRight: 8 }),
      this.buttons.colormap,
      this.buttons.mode,
    );
    bottom.add(this.buttons.follow, this.buttons.exit);
    this.layers = new VrLayerList((id, change, mode) => actions.layer(id, change, mode));
    this.root.add(this.#title, this.#status, this.#fieldsBox, this.#lookRow, this.layers.root, ...sections, scaleRow, bottom);
    this.root.position.copy(PANEL_POSITION);
    // Turned towards the eyes of someone standing at the origin, so it tilts back a little.
    this.root.lookAt(new THREE.Vector3(0, 1.6, 0));
  }

  /** Shows `title` and the controls of `schema` (rebuilt only when the schema changed) with `values`. */
  show(title: string, schema: ParameterSchema | null, values: Record<string, unknown>): void {
    this.#title.setProperties({ text: title });
    this.#values = { ...values };
    const key = JSON.stringify(schema ?? null);
    if (key !== this.#schemaKey) {
      this.#schemaKey = key;
      for (const widget of this.#widgets.values()) this.#fieldsBox.remove(widget.element);
      this.#widgets = new Map();
      for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
        const widget = createVrWidget(name, prop, (value, mode) => {
          this.#values[name] = value;
          this.#actions.change({ ...this.#values }, mode);
        });
        this.#widgets.set(name, widget);
        this.#fieldsBox.add(widget.element);
      }
    }
    for (const [name, widget] of this.#widgets) widget.setValue(values[name]);
  }

  /** The status line ('' leaves it empty). The panel's font has no ellipsis glyph: three dots stand in. */
  setStatus(text: string, tone: 'warn' | 'error' = 'warn'): void {
    // Called every frame: only a change is laid out again.
    if (`${tone}:${text}` === this.#statusShown) return;
    this.#statusShown = `${tone}:${text}`;
    this.#status.setProperties({ text: text.replace(/…/g, '...'), color: tone === 'error' ? T.error : T.warn });
  }

  setScale(scale: number): void {
    this.#scaleText.setProperties({ text: Math.abs(scale - 1) < 1e-3 ? '1:1' : `1:${Number((1 / scale).toPrecision(3))}` });
  }

  setFollow(on: boolean): void {
    if (on === this.#follow) return;
    this.#follow = on;
    this.#followText.setProperties({ text: `Follow room: ${on ? 'on' : 'off'}` });
  }

  /** Shows the result's look (called every frame: only a change is laid out again). */
  setLook(look: VrLook | null): void {
    const key = JSON.stringify(look);
    if (key === this.#lookShown) return;
    this.#lookShown = key;
    this.#lookRow.setProperties({ display: look ? 'flex' : 'none' });
    if (!look) return;
    this.#colormapText.setProperties({ text: `Colours: ${look.colormap}` });
    this.#modeText.setProperties({ text: look.mode ? `View: ${look.mode}` : '' });
    this.buttons.mode.setProperties({ display: look.mode ? 'flex' : 'none' });
  }

  /** The slider track of parameter `name`, if it has one (automation aims at it). */
  track(name: string): Container | undefined {
    return this.#widgets.get(name)?.track;
  }
}
