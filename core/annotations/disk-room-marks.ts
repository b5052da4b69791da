/**
 * @module disk-room-marks
 * A room's marks as a lone host's data folder holds them (the `annotations` database of
 * durable/disk-keys.ts: per room a record of its version, next id and count, and each mark),
 * read with the ids an import under way holds hidden left out: what the disk annotation store
 * reads, at once inside its writes or a batch per turn of the event loop for a whole room.
 */
import type { Annotation } from '../wire/scene-types.ts';
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { takeInTurns } from '../memory/turn-batches.ts';
import { byId, changeable } from './annotation-store.ts';
import { pendingImports, shownBeside } from './disk-import-staging.ts';

/** What a room's record holds: its version, the next id it makes, and how many marks it shows. */
export interface RoomRecord {
  version: number;
  next: number;
  count: number;
}

const NEW_ROOM: RoomRecord = { version: 0, next: 1, count: 0 };

/** Marks read between two turns of the event loop. */
const READ_BATCH = 500;

export class DiskRoomMarks {
  #store: DataStore;

  constructor(store: DataStore) {
    this.#store = store;
  }

  get db() {
    return this.#store.db<RoomRecord | Annotation>(DISK.annotations.name);
  }

  get imports() {
    return pendingImports(this.#store);
  }

  room(roomId: string): RoomRecord {
    return (this.db.get(DISK.annotations.room(roomId)) as RoomRecord | undefined) ?? NEW_ROOM;
  }

  /** The room's marks, unsorted; with `snapshot`, as the database held them when the range began, whatever is written meanwhile. */
  #range(roomId: string, snapshot?: true): Iterable<Annotation> {
    const shown = shownBeside(this.imports.get(roomId));
    return this.db
      .getRange({ ...DISK.annotations.marks(roomId), ...(snapshot ? { snapshot } : {}) })
      .filter(({ key }) => shown(String((key as (string | number)[])[2])))
      .map(({ value }) => value as Annotation);
  }

  /** Mark `id`, unless it is missing or hidden. */
  mark(roomId: string, id: string): Annotation | undefined {
    return shownBeside(this.imports.get(roomId))(id) ? (this.db.get(DISK.annotations.mark(roomId, id)) as Annotation | undefined) : undefined;
  }

  /** Mark `id` as a change may be made to it. @throws SPC_ERR_ANNOTATION_NOT_FOUND, or SPC_ERR_ANNOTATION_STALE when not at version `expected` */
  found(roomId: string, id: string, expected: number | undefined): Annotation {
    return changeable(this.mark(roomId, id), roomId, id, expected);
  }

  /** The room's marks at once (inside a write, which must not wait). */
  now(roomId: string): Annotation[] {
    return [...this.#range(roomId)].sort(byId);
  }

  /**
   * The room's marks, read a batch per turn of the event loop: a room of 100,000 marks is a
   * few hundred milliseconds of reading and decoding, which would hold every other request.
   */
  async all(roomId: string): Promise<Annotation[]> {
    return (await takeInTurns(this.#range(roomId, true), READ_BATCH)).sort(byId);
  }
}
