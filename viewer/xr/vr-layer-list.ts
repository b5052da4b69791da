/**
 * @module vr-layer-list
 * The VR panel's layer list: the room's layers, top first as on the page, each with a switch
 * for its visibility, the plugin version that made it, and a slider for its opacity
 * (vr-widgets.ts, driven by the controller's ray and trigger as the other panel controls). A
 * change is the page's own (room-scene.ts shares it with the room); a change from elsewhere
 * moves the controls. Hidden while the room has no scene.
 */
import { Container, Text } from '@pmndrs/uikit';
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import type { ChangeMode } from '../panels/params/param-field.ts';
import { createVrWidget, type VrWidget } from './vr-widgets.ts';
import { VR_THEME as T } from './vr-theme.ts';

/** One layer as the VR panel shows it. */
export interface VrLayerRow {
  id: string;
  name: string;
  visible: boolean;
  opacity: number;
  /** The plugin and version that made it (`shapes 1.0.0`; '' until it has a result). */
  made?: string;
}

type Widget = VrWidget & { track?: Container; control?: Container };

interface Row {
  element: Container;
  visible: Widget;
  opacity: Widget;
  made: Text;
}

export class VrLayerList {
  readonly root = new Container({ flexDirection: 'column', gap: 10, width: '100%', display: 'none' });
  readonly #rowsBox = new Container({ flexDirection: 'column', gap: 12, width: '100%' });
  readonly #change: (id: string, change: LayerDisplay, mode: ChangeMode) => void;
  #rows = new Map<string, Row>();
  #shown = '';

  constructor(change: (id: string, change: LayerDisplay, mode: ChangeMode) => void) {
    this.#change = change;
    this.root.add(new Text({ text: 'Layers', fontSize: T.fontSize, color: T.muted }), this.#rowsBox);
  }

  /** Shows `rows` (bottom first); called every frame, so only a change is laid out again. */
  show(rows: readonly VrLayerRow[]): void {
    const key = JSON.stringify(rows);
    if (key === this.#shown) return;
    this.#shown = key;
    this.root.setProperties({ display: rows.length > 0 ? 'flex' : 'none' });
    const ids = rows.map((row) => row.id);
    if (JSON.stringify(ids) !== JSON.stringify([...this.#rows.keys()])) this.#rebuild(rows);
    for (const row of rows) {
      const view = this.#rows.get(row.id)!;
      view.visible.setValue(row.visible);
      view.opacity.setValue(row.opacity);
      view.made.setProperties({ text: row.made ?? '', display: row.made ? 'flex' : 'none' });
    }
  }

  /** The part of layer `id`'s control to point at (the switch, or the opacity slider's track). */
  control(id: string, control: 'visible' | 'opacity'): Container | undefined {
    const row = this.#rows.get(id);
    return control === 'visible' ? row?.visible.control : row?.opacity.track;
  }

  #rebuild(rows: readonly VrLayerRow[]): void {
    for (const row of this.#rows.values()) this.#rowsBox.remove(row.element);
    this.#rows = new Map();
    // Top first, as the page lists them.
    for (const row of [...rows].reverse()) {
      const element = new Container({
        flexDirection: 'column',
        gap: 4,
        width: '100%',
        padding: 8,
        backgroundColor: T.surface,
        borderRadius: T.radius,
      });
      const visible = createVrWidget(row.name, { type: 'boolean' }, (value) => this.#change(row.id, { visible: value === true }, 'commit'));
      const opacity = createVrWidget('opacity', { type: 'number', minimum: 0, maximum: 1 }, (value, mode) =>
        this.#change(row.id, { opacity: Number(value) }, mode),
      );
      // The plugin and version that made the layer, under its switch.
      const made = new Text({ text: row.made ?? '', fontSize: T.fontSize * 0.8, color: T.muted, display: row.made ? 'flex' : 'none' });
      element.add(visible.element, made, opacity.element);
      this.#rowsBox.add(element);
      this.#rows.set(row.id, { element, visible, opacity, made });
    }
  }
}
