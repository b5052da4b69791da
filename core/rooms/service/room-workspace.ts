/**
 * @module room-workspace
 * A room as a shared workspace, as requests see it: its own entry and view (room-entries.ts)
 * joined to its scene. Whatever a request shows becomes the scene's active layer, and a room
 * whose cache let its entry go still answers its active layer as its entry.
 */
import type { RoomEntry } from '../../wire/room-types.ts';
import type { RoomView, ViewChange } from '../room-view.ts';
import type { RoomEntries } from './room-entries.ts';

/** How a room's entry and its scene's active layer stay one (scenes/service/entry-link.ts). */
export interface EntryScenes {
  /** A request put the room's entry in front of everyone: the active layer shows it (an empty scene gets one layer). */
  shown(roomId: string): Promise<void>;
  /** The entry of the scene's active layer, for a room whose cache holds none; null without one. */
  activeEntry(roomId: string): Promise<RoomEntry | null>;
}

export class RoomWorkspace {
  #own: RoomEntries;
  #scenes: EntryScenes;

  constructor(own: RoomEntries, scenes: EntryScenes) {
    this.#own = own;
    this.#scenes = scenes;
  }

  /** The room's entry (the `state` event's data), or null when it shows nothing. */
  async entry(roomId: string): Promise<RoomEntry | null> {
    return (await this.#own.ownEntry(roomId)) ?? this.#scenes.activeEntry(roomId);
  }

  /** What the room's cache or a shown static specimen makes its entry, without its scene; null when neither. */
  ownEntry(roomId: string): Promise<RoomEntry | null> {
    return this.#own.ownEntry(roomId);
  }

  /** Sends a room event (e.g. `failed`) to the room's streams on every host. */
  announce(roomId: string, event: string, data: unknown): Promise<void> {
    return this.#own.announce(roomId, event, data);
  }

  /** Makes the static specimen `specimenId` (of `type`) the room's entry, tells the room, and its active layer shows it. */
  async showStatic(roomId: string, specimenId: string, type: string): Promise<RoomEntry> {
    const entry = await this.#own.showStatic(roomId, specimenId, type);
    await this.#scenes.shown(roomId);
    return entry;
  }

  /**
   * After a computation made (or found) the room's cache entry on request: the room is told as
   * its own entry says, its active layer shows it; answers the entry.
   */
  async computed(roomId: string): Promise<RoomEntry | null> {
    await this.#own.computed(roomId);
    await this.#scenes.shown(roomId);
    return this.entry(roomId);
  }

  view(roomId: string): Promise<RoomView> {
    return this.#own.view(roomId);
  }

  /** Applies `change` to the room's view, stores it and tells the room; answers the new view. */
  changeView(roomId: string, change: ViewChange): Promise<RoomView> {
    return this.#own.changeView(roomId, change);
  }
}
