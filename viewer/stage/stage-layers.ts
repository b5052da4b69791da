/**
 * @module stage-layers
 * The stage's layers: an ordered list, bottom first, each a group under the content root whose
 * matrix is the layer's affine and whose one child is the layer's content (or nothing while it
 * loads). A layer's display reaches its content here: visibility on the group, the draw order
 * (its place in the list), opacity, blending and clip planes through the content's
 * `applyLook` (or on its materials), and its own look (window, colour map, labels ...)
 * through `applyDisplay`. Opaque things are drawn first by three.js whatever their order;
 * transparent ones bottom layer first, so an upper layer lies over a lower one.
 */
import * as THREE from 'three';
import type { LayerDisplay } from '../../core/wire/scene-types.ts';
import { affineMatrix, applyObjectLook, layerPlanes, toWorldPlanes } from './layer-look.ts';
import type { LayerLook, StageContent } from './stage-content.ts';

/** One layer on the stage. */
export interface StageLayer {
  readonly id: string;
  /** Hangs under the content root; its matrix is the layer's affine. */
  readonly root: THREE.Group;
  content: StageContent | null;
  display: LayerDisplay;
  /** The clip planes in the layer's own frame, and the same in world space (updated each frame). */
  planes: THREE.Plane[];
  look: LayerLook;
}

/** What changed, for the stage (a new frame; framing when content arrived). */
export type LayersChange = { kind: 'content'; layer: StageLayer; refined: boolean } | { kind: 'display' | 'order' | 'removed' };

export class StageLayers {
  readonly #parent: THREE.Object3D;
  readonly #changed: (change: LayersChange) => void;
  #layers: StageLayer[] = [];

  constructor(parent: THREE.Object3D, changed: (change: LayersChange) => void) {
    this.#parent = parent;
    this.#changed = changed;
  }

  /** Bottom first. */
  list(): readonly StageLayer[] {
    return this.#layers;
  }

  get(id: string): StageLayer | undefined {
    return this.#layers.find((layer) => layer.id === id);
  }

  /** The layer `id`, made empty on top when it is new. */
  ensure(id: string): StageLayer {
    const found = this.get(id);
    if (found) return found;
    const root = new THREE.Group();
    root.matrixAutoUpdate = false;
    root.name = `layer:${id}`;
    const look: LayerLook = { opacity: 1, blending: 'translucent', clipPlanes: [], renderOrder: 0, stack: 0 };
    const layer: StageLayer = { id, root, content: null, display: {}, planes: [], look };
    this.#layers.push(layer);
    this.#parent.add(root);
    this.#restack();
    return layer;
  }

  /** Shows `content` in layer `id` (made when new), disposing what it showed; `refined`: the same thing in more detail. */
  setContent(id: string, content: StageContent | null, refined = false): void {
    const layer = this.ensure(id);
    if (layer.content === content) return;
    if (layer.content) {
      layer.root.remove(layer.content.object);
      layer.content.dispose();
    }
    layer.content = content;
    if (content) {
      layer.root.add(content.object);
      content.attach?.();
      content.applyDisplay?.(layer.display);
      this.#look(layer);
    }
    this.#changed({ kind: 'content', layer, refined });
  }

  /** Gives layer `id` (made when new) the display `display` (every field; absent ones take their defaults). */
  setDisplay(id: string, display: LayerDisplay): void {
    const layer = this.ensure(id);
    layer.display = display;
    layer.root.visible = display.visible !== false;
    layer.root.matrix.copy(affineMatrix(display.affine));
    layer.root.matrixWorldNeedsUpdate = true;
    layer.planes = layerPlanes(display.clip_planes);
    layer.look.opacity = typeof display.opacity === 'number' && display.opacity >= 0 && display.opacity <= 1 ? display.opacity : 1;
    layer.look.blending = display.blending ?? 'translucent';
    layer.content?.applyDisplay?.(display);
    this.#look(layer);
    this.#changed({ kind: 'display' });
  }

  /** Puts the layers named in `ids` in that order (bottom first); layers not named stay, above them. */
  setOrder(ids: readonly string[]): void {
    const rank = (layer: StageLayer): number => {
      const at = ids.indexOf(layer.id);
      return at < 0 ? ids.length : at;
    };
    this.#layers = [...this.#layers].sort((a, b) => rank(a) - rank(b));
    this.#restack();
    this.#changed({ kind: 'order' });
  }

  /** Removes layer `id` and disposes its content. */
  remove(id: string): void {
    const layer = this.get(id);
    if (!layer) return;
    if (layer.content) layer.content.dispose();
    this.#parent.remove(layer.root);
    this.#layers = this.#layers.filter((l) => l !== layer);
    this.#restack();
    this.#changed({ kind: 'removed' });
  }

  /** Gives layer `from` the id `to` (the page's own layer once the room's scene names it); false when `to` is taken. */
  rename(from: string, to: string): boolean {
    const layer = this.get(from);
    if (!layer || from === to || this.get(to)) return false;
    (layer as { id: string }).id = to;
    layer.root.name = `layer:${to}`;
    return true;
  }

  /** The visible contents' bounding box, in the frame of the content root. */
  box(): THREE.Box3 {
    const box = new THREE.Box3();
    this.#parent.updateMatrixWorld(true);
    const toParent = this.#parent.matrixWorld.clone().invert();
    for (const layer of this.#layers) {
      if (!layer.content || !layer.root.visible) continue;
      const own = new THREE.Box3().setFromObject(layer.content.object);
      if (!own.isEmpty()) box.union(own.applyMatrix4(toParent));
    }
    return box;
  }

  /** Brings each layer's clip planes into world space (before a frame: the content root may have moved). */
  updatePlanes(): void {
    for (const layer of this.#layers) {
      if (layer.planes.length === 0 && layer.look.clipPlanes.length === 0) continue;
      layer.root.updateWorldMatrix(true, false);
      toWorldPlanes(layer.planes, layer.root.matrixWorld, layer.look.clipPlanes);
    }
  }

  /** Each layer's place in the list as its draw order and stack. */
  #restack(): void {
    this.#layers.forEach((layer, index) => {
      layer.look.renderOrder = index;
      layer.look.stack = index;
      this.#look(layer);
    });
  }

  #look(layer: StageLayer): void {
    this.updatePlanes();
    const content = layer.content;
    if (!content) return;
    if (content.applyLook) content.applyLook(layer.look);
    else applyObjectLook(content.object, layer.look);
  }
}
