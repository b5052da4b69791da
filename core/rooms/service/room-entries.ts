/**
 * @module room-entries
 * A room's own entry and view, apart from its scene. The entry is the room cache's, or a static
 * specimen put in front of everyone, whichever came last; a static specimen has no cache entry,
 * so the room board keeps it with the time it was shown. Every change goes to the room's
 * streams as an event: `result` for the entry, `view` for the view. Scenes read and change the
 * room through this; requests go through the room as a workspace (room-workspace.ts), which
 * also keeps the entry and the scene's active layer one.
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

export class RoomEntries {
  #results: Pick<ResultSource, 'roomState' | 'forgetEntry'>;
  #board: RoomBoard;

  constructor(results: Pick<ResultSource, 'roomState' | 'forgetEntry'>, board: RoomBoard) {
    this.#results = results;
    this.#board = board;
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
    return entry;
  }

  /**
   * After a computation made (or found) the room's cache entry on request: a static specimen
   * shown before gives way to it, and the room is told (a cache hit announces nothing itself).
   */
  async computed(roomId: string): Promise<void> {
    if (await this.#board.clearShown(roomId)) {
      const state = await this.#results.roomState(roomId);
      if (state) await this.#board.announce(roomId, 'result', toRoomEntry(state));
    }
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
