/**
 * @module room-workspace
 * A room as a shared workspace: what it shows (its entry) and how (its view). The entry is
 * the room cache's, or a static specimen put in front of everyone, whichever came last; a
 * static specimen has no cache entry, so the room board keeps it with the time it was shown.
 * Every change goes to the room's streams as an event: `result` for the entry, `view` for
 * the view.
 */
import type { RoomEntry } from '../client/wire-types.ts';
import type { RoomState } from '../cache/room-state.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { RoomBoard, ShownSpecimen } from '../rooms/room-board.ts';
import { applyViewChange, type RoomView, type ViewChange } from '../rooms/room-view.ts';

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

export class RoomWorkspace {
  #results: Pick<ResultSource, 'roomState'>;
  #board: RoomBoard;

  constructor(results: Pick<ResultSource, 'roomState'>, board: RoomBoard) {
    this.#results = results;
    this.#board = board;
  }

  /** The room's entry (the `state` event's data), or null when it shows nothing. */
  async entry(roomId: string): Promise<RoomEntry | null> {
    const [state, shown] = await Promise.all([this.#results.roomState(roomId), this.#board.shown(roomId)]);
    if (shown && (!state || (state.since ?? 0) <= shown.since)) return shownEntry(shown);
    return state ? toRoomEntry(state) : null;
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
  async computed(roomId: string): Promise<RoomEntry | null> {
    if (await this.#board.clearShown(roomId)) {
      const state = await this.#results.roomState(roomId);
      if (state) await this.#board.announce(roomId, 'result', toRoomEntry(state));
    }
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
