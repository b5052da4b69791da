/**
 * @module room-scene
 * The room's scene on this page: every `scene` event (the first comes right after `state` and
 * `view`, so a late joiner gets the whole scene at once) orders the stage's layers as the room
 * does, gives each its display, loads each one's result (layer-loader.ts) and lists them
 * (layer-list.ts). The active layer is the room's entry: the page's own request path shows it
 * (its specimen or function in the panel), so it is never loaded here. A room without a scene
 * is shown as before: its entry alone. Changes made here travel as requests (scene-actions.ts),
 * display changes after a quiet spell and never echoed (scene-sync.ts); a layer's `computing`
 * and `failed` show on its row. A snapshot is shown the same way, read-only.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { LayerDisplay, LayerSource, RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import type { DeliveryQuery, SpecimenMetadata } from '../../core/wire/wire-types.ts';
import type { RoomEvent, RoomView } from '../../core/wire/room-types.ts';
import { LayerList } from './layer-list.ts';
import { LayerLoader } from './layer-loader.ts';
import { activeLayerOf, layerName, layerRows, listNote, vrLayerRows } from './layer-rows.ts';
import { SceneActions } from './scene-actions.ts';
import { LAYER_FIELDS, SceneSync } from './scene-sync.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import { ENTRY_LAYER, type Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import type { VrLayerRow } from '../xr/vr-layer-list.ts';

export interface RoomSceneOptions {
  client: VitrineClient;
  stage: Stage;
  /** The room the page follows; null while it follows none. */
  room(): string | null;
  /** Turns following on (adding a layer shares it with the room, so the page must see the room). */
  follow(): void;
  /** What a page in VR adds to a request (a mesh's triangle budget). */
  vrDelivery(type: string): DeliveryQuery | undefined;
  /** Puts the tool panel of the selected layer on the stage (null: none). */
  showPanel(panel: HTMLElement | null): void;
  /** What the page shows now, as a layer source ("Add current"); null when nothing. */
  current(): LayerSource | null;
  /** The labels versions of layer `id` already drawn in place by their edits (the edit panel's). */
  relabelled?(id: string): ReadonlySet<number>;
}

/**
 * A content's view change as its layer's display. Its `opacity` is not copied: a volume's
 * opacity is the room's view (the active layer's content shares it there, room-view.ts), and a
 * layer's own `opacity` is a second fade over the whole layer (its row's slider); copying one
 * onto the other would fade the volume twice.
 */
function displayOf(change: RoomView): LayerDisplay {
  const { camera: _camera, opacity: _opacity, ...rest } = change;
  return rest;
}

export class RoomSceneView {
  readonly list: LayerList;
  readonly #options: RoomSceneOptions;
  readonly #sync: SceneSync;
  readonly #loader: LayerLoader;
  readonly #actions: SceneActions;
  #remote: RoomScene | null = null;
  #shown: RoomScene | null = null;
  #readOnly = false;
  #displays = new Map<string, string>();
  #status = new Map<string, { status: string; detail: string }>();
  #panels = new Map<string, HTMLElement | null>();
  #selected: string | null = null;
  #note = '';

  constructor(options: RoomSceneOptions) {
    this.#options = options;
    this.#actions = new SceneActions({
      client: options.client,
      room: options.room,
      scene: () => this.#remote,
      report: (message) => this.#report(message),
    });
    this.#sync = new SceneSync({ send: (layer, change) => this.#actions.update(layer, change) });
    this.#loader = new LayerLoader({
      client: options.client,
      stage: options.stage,
      vrDelivery: options.vrDelivery,
      shown: (id, content, panel) => this.#bind(id, content, panel),
      status: (id, status, detail) => this.#setStatus(id, status, detail ?? ''),
      ownDataUrl: (id) => {
        const room = options.room();
        return this.#readOnly || room === null ? null : `/api/rooms/${encodeURIComponent(room)}/layers/${encodeURIComponent(id)}/data`;
      },
      relabelled: (id) => options.relabelled?.(id) ?? new Set(),
    });
    this.list = new LayerList({
      change: (id, change, mode) => this.change(id, change, mode === 'commit'),
      move: (id, by) => this.#actions.move(id, by),
      remove: (id) => this.#actions.remove(id),
      activate: (id) => this.#actions.activate(id),
      select: (id) => this.#select(id),
      retarget: (id, offer) => this.#actions.retarget(id, offer),
      add: (source) => this.#add(source),
      addRemote: (remote) => {
        if (this.#options.room() === null) this.#options.follow();
        this.#actions.addRemote(remote);
      },
      addCurrent: () => {
        const source = options.current();
        if (source) this.#add(source);
      },
    });
    this.#render();
  }

  /** The room has a scene with layers. */
  get active(): boolean {
    return (this.#remote?.layers.length ?? 0) > 0;
  }

  /** Layer `id`'s name as the list shows it (null when the room has no such layer). */
  nameOf(id: string): string | null {
    const layer = this.#shown?.layers.find((l) => l.id === id);
    return layer ? layerName(layer) : null;
  }

  /** The parameters of the room's active layer when it shows `meta` (a specimen, or a function by name); else undefined. */
  activeParams(meta: Pick<SpecimenMetadata, 'id' | 'function_name'>): Record<string, unknown> | undefined {
    const source = activeLayerOf(this.#shown)?.source;
    if (!source) return undefined;
    const shows = source.specimen === meta.id || (source.specimen === undefined && source.function === (meta.function_name ?? meta.id));
    return shows ? (source.params ?? {}) : undefined;
  }

  /** Where the room's active layer's result is read (its `data_url`), null while it has none. */
  activeLayerUrl(): string | null {
    return activeLayerOf(this.#shown)?.result?.data_url || null;
  }

  /** The kind the room gives the active layer (a `labels` entry is drawn as a segmentation). */
  activeKind(): string | undefined {
    return activeLayerOf(this.#shown)?.kind;
  }

  /** Whether the active layer is a segmentation shown as its surfaces alone (no volume to fetch past the coarse one). */
  activeSurfaces(): boolean {
    const layer = activeLayerOf(this.#shown);
    return layer?.kind === 'labels' && layer.mode === 'surface';
  }

  /** The layers as the VR panel lists them. */
  vrRows(): VrLayerRow[] {
    return vrLayerRows(this.#shown);
  }

  /** A scene: the room's (a `scene` event), or a snapshot's (`readOnly`). */
  apply(scene: RoomScene, readOnly = false): void {
    this.#readOnly = readOnly;
    this.#remote = scene;
    const shown = this.#sync.resolve(scene);
    this.#shown = shown;
    const { stage } = this.#options;
    const active = shown.active && shown.layers.some((layer) => layer.id === shown.active) ? shown.active : ENTRY_LAYER;
    if (stage.activeLayer !== active) this.#loader.forget(active);
    stage.setActiveLayer(active);
    const ids = new Set(shown.layers.map((layer) => layer.id));
    for (const layer of [...stage.layers.list()]) {
      if (ids.has(layer.id) || layer.id === stage.activeLayer) continue;
      this.#forget(layer.id);
      stage.layers.remove(layer.id);
    }
    for (const layer of shown.layers) {
      const display = stableJson([layer.kind, ...LAYER_FIELDS.map((field) => layer[field] ?? null)]);
      if (this.#displays.get(layer.id) !== display) {
        this.#displays.set(layer.id, display);
        stage.layers.setDisplay(layer.id, layer);
      }
      // The page's own request path shows the active layer; a snapshot has none, so every layer loads.
      if (layer.id !== active || readOnly) this.#loader.load(layer);
    }
    stage.layers.setOrder(shown.layers.map((layer) => layer.id));
    this.#render();
  }

  /**
   * A room event that names a layer other than the active one (`computing`, `result`,
   * `failed`): the active layer's are the room's entry (they name it, or none in a room
   * without a scene) and go the entry's way. Shown on the layer's row; a result is loaded (by
   * its blob, until the scene event that sets it comes). True when it was such an event.
   */
  layerEvent(event: RoomEvent): boolean {
    if (event.event !== 'computing' && event.event !== 'result' && event.event !== 'failed') return false;
    const id = event.data.layer;
    if (!id || id === this.#remote?.active) return false;
    const layer = this.#remote?.layers.find((l) => l.id === id);
    if (!layer || this.#readOnly) return true;
    if (event.event === 'computing') this.#setStatus(id, 'computing', '');
    else if (event.event === 'failed') this.#setStatus(id, 'failed', event.data.detail);
    else if (event.data.result_id && event.data.result_id !== layer.result?.result_id) {
      const type = event.data.type as NonNullable<SceneLayer['result']>['type'];
      layer.result = { result_id: event.data.result_id, type, data_url: layer.result?.data_url ?? '', blob_id: event.data.blob_id };
      this.apply(this.#remote!);
    }
    return true;
  }

  /** The page's own content is on the stage (the active layer): in a scene its look is shared as its layer's. */
  bindActive(content: StageContent | null, panel: HTMLElement | null): void {
    const id = this.#options.stage.activeLayer;
    this.#panels.set(id, panel);
    if (content) {
      const view = content.onViewChange;
      content.onViewChange = (change) => {
        view?.(change);
        if (this.active) this.change(id, displayOf(change), false);
      };
      content.onDisplayChange = (change) => this.active && this.change(id, change, false);
      const layer = this.#shown?.layers.find((l) => l.id === id);
      if (layer) content.applyDisplay?.(layer);
    }
    this.#showPanel();
  }

  /** Loads again what depends on how the page asks (entering or leaving VR: meshes within the headset's budget). */
  refresh(): void {
    if (this.#remote) this.apply(this.#remote, this.#readOnly);
  }

  /** The page stopped following the room (or moved to another): only its own layer stays. */
  reset(): void {
    const { stage } = this.#options;
    this.#sync.reset();
    this.#loader.clear();
    for (const layer of [...stage.layers.list()]) if (layer.id !== stage.activeLayer) stage.layers.remove(layer.id);
    stage.setActiveLayer(ENTRY_LAYER);
    stage.layers.setDisplay(ENTRY_LAYER, {});
    this.#remote = this.#shown = null;
    this.#displays.clear();
    this.#status.clear();
    this.#selected = null;
    this.#render();
    this.#showPanel();
  }

  #bind(id: string, content: StageContent, panel: HTMLElement | undefined): void {
    content.onViewChange = (change) => this.change(id, displayOf(change), false);
    content.onDisplayChange = (change) => this.change(id, change, false);
    this.#panels.set(id, panel ?? null);
    if (this.#selected === id) this.#showPanel();
  }

  #forget(id: string): void {
    this.#loader.forget(id);
    this.#displays.delete(id);
    this.#status.delete(id);
    this.#panels.delete(id);
    if (this.#selected === id) this.#selected = null;
  }

  /**
   * A display change made on this page (its list, a layer's panel, the VR panel): shown at
   * once, shared once the changes pause (at once on `commit`).
   */
  change(id: string, change: LayerDisplay, commit: boolean): void {
    if (this.#readOnly || !this.#remote || Object.keys(change).length === 0) return;
    this.#sync.local(id, change);
    if (commit) this.#sync.flush();
    this.apply(this.#remote);
  }

  #add(source: LayerSource): void {
    if (this.#options.room() === null) this.#options.follow();
    this.#actions.add(source);
  }

  #select(id: string): void {
    this.#selected = id;
    this.#showPanel();
    this.#render();
  }

  #showPanel(): void {
    const id = this.#selected ?? this.#options.stage.activeLayer;
    this.#options.showPanel(this.#panels.get(id) ?? this.#panels.get(this.#options.stage.activeLayer) ?? null);
  }

  #setStatus(id: string, status: string, detail: string): void {
    this.#status.set(id, { status, detail });
    this.#render();
  }

  #report(message: string): void {
    this.#note = message;
    this.#render();
  }

  #render(): void {
    const rows = layerRows(this.#shown, this.#selected ?? this.#options.stage.activeLayer, this.#status);
    const unfollowed = this.#options.room() === null && !this.#readOnly;
    this.list.show(rows, !this.#readOnly, this.#note || listNote(unfollowed, this.#remote !== null, rows.length));
  }
}
