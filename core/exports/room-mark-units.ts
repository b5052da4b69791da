/**
 * @module room-mark-units
 * The length unit of each frame a room's marks may be in, for the exports of its marks: every
 * scene layer's (its result's `unit`) and the room's own (the active layer's, else the entry's
 * result's, as the page's scale bar reads it). A result id names its content, unit included, so
 * a result's unit, once read, is kept by its id: a read of a room's marks costs its scene and
 * entry, and a result only the first time it is met.
 */
import type { FrameUnits } from '../annotations/mark-units.ts';
import type { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import type { RoomScenes } from '../scenes/service/room-scenes.ts';
import type { ResultIds } from '../serving/result-ids.ts';

/** Results whose unit is kept at most (the oldest read goes first). */
const KEPT = 4096;

/** What the units are read from. */
export interface RoomMarkUnitsDeps {
  rooms: Pick<RoomWorkspace, 'entry'>;
  scenes: Pick<RoomScenes, 'scene'>;
  resultIds: Pick<ResultIds, 'find'>;
}

export class RoomMarkUnits {
  readonly #deps: RoomMarkUnitsDeps;
  /** Result id → its length unit (null: it states none). */
  readonly #kept = new Map<string, string | null>();

  constructor(deps: RoomMarkUnitsDeps) {
    this.#deps = deps;
  }

  /** The units of room `roomId`'s frames; `client` is who asks (a Redis service's lookups are counted by it). */
  async of(roomId: string, client = ''): Promise<FrameUnits> {
    const [scene, entry] = await Promise.all([this.#deps.scenes.scene(roomId), this.#deps.rooms.entry(roomId)]);
    const layers = new Map<string, string | null>();
    await Promise.all(
      scene.layers.map(async (layer) => layers.set(layer.id, await this.#unitOf(layer.result?.result_id, client))),
    );
    const active = scene.active === null ? undefined : layers.get(scene.active);
    const room = active ?? (await this.#unitOf(entry?.result_id, client));
    return { room, layers };
  }

  /** The length unit result `id` states, null when it states none or cannot be had now. */
  async #unitOf(id: string | undefined, client: string): Promise<string | null> {
    if (id === undefined) return null;
    const known = this.#kept.get(id);
    if (known !== undefined) return known;
    const result = await this.#deps.resultIds.find(id, client).catch(() => null);
    if (!result) return null;
    const unit = (result as { unit?: unknown }).unit;
    const found = typeof unit === 'string' && unit !== '' ? unit : null;
    this.#kept.set(id, found);
    if (this.#kept.size > KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    return found;
  }
}
