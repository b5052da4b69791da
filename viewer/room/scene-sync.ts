/**
 * @module scene-sync
 * SceneSync: each layer's display kept in step between this page and its room, setting by
 * setting, by the rules of setting-sync.ts: a change made here (a slider dragged) is sent as
 * one `PATCH` of its layer once it pauses, is never echoed back, and is not pulled back by a
 * `scene` event that predates it; `resolve` gives the room's scene with this page's own values
 * over it where they still win, which is what the page shows.
 */
import type { LayerChange } from '../../core/wire/scene-types.ts';
import type { LayerDisplay, RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { SettingSync } from './setting-sync.ts';

/** The display fields a layer shares. */
export const LAYER_FIELDS = [
  'name',
  'visible',
  'opacity',
  'blending',
  'colormap',
  'window',
  'gamma',
  'mode',
  'affine',
  'clip_planes',
  'labels',
  't',
  'playing',
  'channels',
] as const;
type Field = (typeof LAYER_FIELDS)[number];

export interface SceneSyncOptions {
  /** Shares `change` of layer `layer` with the room (its `PATCH`). */
  send(layer: string, change: LayerChange): Promise<void>;
  /** The quiet spell before a change is sent. @defaultValue 200 ms */
  debounceMs?: number;
}

const SEPARATOR = '\u0000';
const keyOf = (layer: string, field: Field): string => `${layer}${SEPARATOR}${field}`;

export class SceneSync {
  readonly #sync: SettingSync;

  constructor(options: SceneSyncOptions) {
    this.#sync = new SettingSync({
      debounceMs: options.debounceMs,
      send: async (changes) => {
        const byLayer = new Map<string, Record<string, unknown>>();
        for (const [key, value] of changes) {
          const [layer, field] = key.split(SEPARATOR) as [string, string];
          byLayer.set(layer, { ...byLayer.get(layer), [field]: value });
        }
        await Promise.all([...byLayer].map(([layer, change]) => options.send(layer, change as LayerChange)));
      },
      // What applies is read back through resolve(); nothing more to do here.
      apply: () => {},
    });
  }

  /** The user changed `change` of layer `layer` here. */
  local(layer: string, change: LayerDisplay): void {
    this.#sync.local(LAYER_FIELDS.filter((field) => change[field] !== undefined).map((field) => [keyOf(layer, field), change[field]]));
  }

  /** Sends the waiting changes now. */
  flush(): void {
    this.#sync.flush();
  }

  /** The room's scene as this page shows it: its own values over the room's where they still win. */
  resolve(scene: RoomScene): RoomScene {
    this.#sync.remote(
      scene.layers.flatMap((layer) => LAYER_FIELDS.map((field): [string, unknown] => [keyOf(layer.id, field), layer[field]])),
    );
    return { ...scene, layers: scene.layers.map((layer) => this.#resolveLayer(layer)) };
  }

  /** Forgets everything (another room, or following stopped). */
  reset(): void {
    this.#sync.reset();
  }

  #resolveLayer(layer: SceneLayer): SceneLayer {
    let out: SceneLayer | null = null;
    for (const field of LAYER_FIELDS) {
      const key = keyOf(layer.id, field);
      if (!this.#sync.held(key)) continue;
      out ??= { ...layer };
      (out as unknown as Record<string, unknown>)[field] = this.#sync.current.get(key);
    }
    return out ?? layer;
  }
}
