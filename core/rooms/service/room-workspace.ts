/**
 * @module room-workspace
 * A room as a shared workspace: what it shows (its entry) and how (its view). The entry is
 * the room cache's, or a static specimen put in front of everyone, whichever came last; a
 * static specimen has no cache entry, so the room board keeps it with the time it was shown.
 * Every change goes to the room's streams as an event: `result` for the entry, `view` for
 * the view. A room with a scene links its entry to the scene's active layer (EntryScenes):
 * whatever a request shows becomes the active layer, and a room whose cache let its entry go
 * still answers its active layer.
 */
import type { RoomEntry } from '../../wire/room-types.ts';
import type { RoomState } from '../../cache/room-state.ts';
import type { ResultSource } from '../../serving/result-source.ts';
import type { RoomBoard, ShownSpecimen } from '../room-board.ts';
import { applyViewChange, type RoomView, type ViewChange } from '../room-view.ts';

/** The wire shape of a room's entry (typed as the client's, so the two cannot drift apart). */
export function toRoomEntry(state: RoomState): RoomEntry {
  const entry: RoomEntry = { function_name: state.function_name, specimen_id: state.specimen_id, params: state.params, type: state.type };
  if (state.result_id) entry.result_id = state.result_id;
  if (state.blob_id) entry.blob_id = state.blob_id;
  return entry;
}

function shownEntry(shown: ShownSpecimen): RoomEntry {
  return { function_name: null, specimen_id: shown.specimen_id, params: {}, type: shown.type };
}

/** How a room's entry and its scene's active layer stay one (workspace/entry-link.ts). */
export interface EntryScenes {
  /** A request put the room's entry in front of everyone: the active layer shows it (an empty scene gets one layer). */
  shown(roomId: string): Promise<void>;
  /** The entry of the scene's active layer, for a room whose cache holds none; null without one. */
  activeEntry(roomId: string): Promise<RoomEntry | null>;
}

export class RoomWorkspace {
  #results: Pick<ResultSource, 'roomState' | 'forgetEntry'>;
  #board: RoomBoard;
  #scenes: EntryScenes | null = null;

  constructor(results: Pick<ResultSource, 'roomState' | 'forgetEntry'>, board: RoomBoard) {
    this.#results = results;
    this.#board = board;
  }

  /** Links rooms' entries to their scenes' active layers. */
  useScenes(scenes: EntryScenes): void {
    this.#scenes = scenes;
  }

  /** The room's entry (the `state` event's data), or null when it shows nothing. */
  async entry(roomId: string): Promise<RoomEntry | null> {
    return (await this.ownEntry(roomId)) ?? (this.#scenes ? this.#scenes.activeEntry(roomId) : null);
  }

  /** What the room's cache or a shown static specimen makes its entry, whichever came last; null when neither. */
  async ownEntry(roomId: string): Promise<RoomEntry | null> {
    const [state, shown] = await Promise.all([this.#results.roomState(roomId), this.#board.shown(roomId)]);
    if (shown && (!state || (state.since ?? 0) <= shown.since)) return shownEntry(shown);
    return state ? toRoomEntry(state) : null;
  }

  /** The room shows nothing any more (its scene lost its last layer): its cache entry and shown specimen go. */
  async clear(roomId: string): Promise<void> {
    await Promise.all([this.#board.clearShown(roomId), this.#results.forgetEntry(roomId)]);
  }

  /** Sends a room event (e.g. `failed`) to the room's streams on every host. */
  announce(roomId: string, event: string, data: unknown): Promise<void> {
    return this.#board.announce(roomId, event, data);
  }

  /** Makes the static specimen `specimenId` (of `type`) the room's entry and tells the room. */
  async showStatic(roomId: string, specimenId: string, type: string): Promise<RoomEntry> {
    const shown: ShownSpecimen = { specimen_id: specimenId, type, since: Date.now() };
    await this.#board.setShown(roomId, shown);
    const entry = shownEntry(shown);
    await this.#board.announce(roomId, 'result', entry);
    await this.#scenes?.shown(roomId);
    return entry;
  }

  /**
   * After a computation made (or found) the room's cache entry on request: a static specimen
   * shown before gives way to it, and the room is told (a cache hit announces nothing itself).
   */
  async computed(roomId: string): Promise<RoomEntry | null> {
    if (await this.#board.clearShown(roomId)) {
      const state = await this.#results.roomState(roomId);
      if (state) await this.#board.announce(roomId, 'result', toRoomEntry(state));
    }
    await this.#scenes?.shown(roomId);
    return this.entry(roomId);
  }

  view(roomId: string): Promise<RoomView> {
    return this.#board.view(roomId);
  }

  /** Applies `change` to the room's view, stores it and tells the room; answers the new view. */
  async changeView(roomId: string, change: ViewChange): Promise<RoomView> {
    const view = applyViewChange(await this.#board.view(roomId), change);
    await this.#board.setView(roomId, view);
    await this.#board.announce(roomId, 'view', view);
    return view;
  }
}
