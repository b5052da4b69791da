/**
 * @module mark-units
 * The length unit of a mark's measurements. The host measures in the physical units of the
 * frame a mark's points are in: its layer's result when it names a layer, else the room's
 * entry (the active layer), or, in a room without one (a static specimen shown), what the page
 * shows. That result's `unit` (`GET /api/results/{id}`) is the unit; a
 * result that states none gives none, and the number is shown bare. A frame's unit, once
 * found, is kept for the room; a frame without one (yet: the entry may change to a result
 * that has one) is asked again the next time marks are shown. A page showing a scene that is
 * not its room's (a snapshot, read-only) finds each frame's result in that scene: its active
 * layer's is the room frame's, whatever room the page names.
 */

/** What of a scene names each frame's result. */
export interface SceneResults {
  layers: readonly { id: string; result?: { result_id?: string } | null }[];
  active: string | null;
}

/** Reads a JSON document of the host (null when it answers an error). */
type ReadJson = (path: string) => Promise<Record<string, unknown> | null>;

const readJson: ReadJson = async (path) => {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  return response.ok ? ((await response.json()) as Record<string, unknown>) : null;
};

export class MarkUnits {
  readonly #read: ReadJson;
  readonly #resolved: () => void;
  readonly #shownResult: () => string | null;
  #room = '';
  /** The scene the page shows in place of its room's (null: the room's own). */
  #scene: SceneResults | null = null;
  /** Frame (a layer id, or `/` and the shown result's id for the room's) → its unit, or the lookup under way. */
  #units = new Map<string, string | Promise<void>>();

  /**
   * `resolved` after a unit became known (the marks are shown again with it); `shownResult` is
   * the result the page shows, as its answer named it (null when none is known).
   */
  constructor(resolved: () => void, shownResult: () => string | null, read: ReadJson = readJson) {
    this.#resolved = resolved;
    this.#shownResult = shownResult;
    this.#read = read;
  }

  /** Forgets what was looked up (another room). */
  reset(room: string): void {
    this.#room = room;
    this.#units.clear();
  }

  /** The page shows `scene` in place of its room's (a snapshot): its frames are looked up there from now on. */
  showScene(scene: SceneResults): void {
    this.#scene = scene;
    this.#units.clear();
  }

  /** The unit of frame `layer` (undefined: the room's), null when none is known (yet). */
  unitOf(layer: string | undefined): string | null {
    // The room's frame is named by what the page shows too: another subject may have another unit.
    const key = layer ?? `/${this.#shownResult() ?? ''}`;
    const known = this.#units.get(key);
    if (known === undefined) this.#units.set(key, this.#lookUp(this.#room, key));
    return typeof known === 'string' ? known : null;
  }

  async #lookUp(room: string, key: string): Promise<void> {
    let unit: string | null | undefined;
    try {
      const resultId = await this.#resultOf(room, key);
      if (resultId) unit = stringOr((await this.#read(`/api/results/${encodeURIComponent(resultId)}`))?.unit);
    } catch {
      // Asked again on the next showing.
    }
    if (room !== this.#room) return;
    if (typeof unit !== 'string') this.#units.delete(key);
    else {
      this.#units.set(key, unit);
      this.#resolved();
    }
  }

  /** The result whose frame `key` is: the layer's in the scene shown (the room's), or its active layer's (the room's entry). */
  async #resultOf(room: string, key: string): Promise<string | null> {
    const shown = this.#scene;
    if (shown) {
      const layer = key.startsWith('/') ? shown.active : key;
      return stringOr(shown.layers.find((l) => l.id === layer)?.result?.result_id) ?? (key.startsWith('/') ? stringOr(key.slice(1)) : null);
    }
    const path = `/api/rooms/${encodeURIComponent(room)}`;
    if (key.startsWith('/')) {
      const entry = stringOr((await this.#read(`${path}/entry`))?.result_id);
      return entry ?? stringOr(key.slice(1));
    }
    const scene = await this.#read(`${path}/scene`);
    const layers = Array.isArray(scene?.layers) ? (scene.layers as { id?: unknown; result?: { result_id?: unknown } }[]) : [];
    return stringOr(layers.find((layer) => layer.id === key)?.result?.result_id);
  }
}

const stringOr = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
