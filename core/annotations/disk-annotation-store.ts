/**
 * @module disk-annotation-store
 * A lone host's annotations in its data folder (the `annotations` database): per room a record
 * of its version, next id and count (`[room, 'm']`) and each annotation under `[room, 'a', id]`.
 * Every change is checked, then written in one transaction with the room record and its entry
 * in the room's log, so a batch is all there or none of it after any crash, the log has every
 * change the room has, ids are never made twice and versions go on from where they were; its
 * events go out once it is on disk, in version order.
 *
 * A large batch (an import of up to a room's 100,000 marks) is written in several transactions
 * instead, a few thousand marks each, so that no turn of the event loop holds the whole write:
 * its ids are reserved first and kept hidden from every read while they are written (the
 * `annotation-imports` database names the hidden range of each room), and a last transaction
 * shows them all at once with the room's new version and their log entries (encoded before it).
 * Readers never see half an import (disk-room-marks.ts leaves its ids out); one a crash
 * interrupted is removed when the store opens again (disk-import-staging.ts), one a full disk
 * refused at once or, the disk refusing that too, before the room's next import: its record is
 * never written over, as that would show its marks without their log entries.
 */
import type { Annotation, AnnotationEvent, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createHostError } from '../errors.ts';
import { changedAnnotation, type AnnotationPatch } from './annotation-patch.ts';
import { pointsOf, toAnnotation } from './annotation-record.ts';
import { inTurn } from '../memory/key-turns.ts';
import { weighedRuns } from '../memory/turn-batches.ts';
import { addedEvents, ANNOTATION_EVENT, byId, eventsOf, nextIdAfter, type AnnotationStore } from './annotation-store.ts';
import { markChanged, marksAdded, marksReplaced } from '../history/room-changes.ts';
import type { DiskRoomLog } from '../history/disk-room-log.ts';
import { clearInterrupted, removeLeftover, removePending, STAGING, type PendingImport, type Staging } from './disk-import-staging.ts';
import { DiskRoomMarks, type RoomRecord } from './disk-room-marks.ts';

export class DiskAnnotationStore implements AnnotationStore {
  #store: DataStore;
  #marks: DiskRoomMarks;
  #hub: EventHub;
  #maxPerRoom: number;
  #log: DiskRoomLog;
  #now: () => number;
  #staging: Staging;
  /** Per room, the staged import or replacement under way: the next waits for it. */
  #exclusive = new Map<string, Promise<unknown>>();
  /** Imports a crash interrupted, being removed; every operation waits for it. */
  #ready: Promise<void>;

  /** `log`: the rooms' logs in the same store. */
  constructor(store: DataStore, hub: EventHub, maxPerRoom: number, log: DiskRoomLog, now: () => number = Date.now, staging: Staging = STAGING) {
    this.#store = store;
    this.#marks = new DiskRoomMarks(store);
    this.#hub = hub;
    this.#maxPerRoom = maxPerRoom;
    this.#log = log;
    this.#now = now;
    this.#staging = staging;
    this.#ready = clearInterrupted(store, staging.chunk);
  }

  get #db() {
    return this.#marks.db;
  }

  #room = (roomId: string): RoomRecord => this.#marks.room(roomId);

  #announce(roomId: string, events: readonly AnnotationEvent[]): void {
    for (const data of eventsOf(events)) this.#hub.publish(roomChannel(roomId), { event: ANNOTATION_EVENT, data });
  }

  async list(roomId: string): Promise<AnnotationList> {
    await this.#ready;
    // The version read in the same turn as the range begins: the marks are that version's.
    const { version } = this.#room(roomId);
    return { version, annotations: await this.#marks.all(roomId) };
  }

  async version(roomId: string): Promise<number> {
    await this.#ready;
    return this.#room(roomId).version;
  }

  async get(roomId: string, id: string): Promise<Annotation | null> {
    await this.#ready;
    return this.#marks.mark(roomId, id) ?? null;
  }

  /** Refuses `more` marks past the room's limit, counting those an import in progress holds. */
  #checkRoom(roomId: string, room: RoomRecord, more: number): void {
    const pending = this.#marks.imports.get(roomId);
    const holds = room.count + (pending ? pending.to - pending.from : 0);
    if (holds + more > this.#maxPerRoom) {
      throw createHostError('SPC_ERR_ANNOTATIONS_FULL', roomId, String(this.#maxPerRoom), `${more} more (it holds ${holds})`);
    }
  }

  async add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    await this.#ready;
    if (drafts.reduce((points, draft) => points + pointsOf(draft), 0) >= this.#staging.from) {
      // Refused at once when it cannot fit, rather than after the import under way; checked again when its ids are reserved.
      this.#checkRoom(roomId, this.#room(roomId), drafts.length);
      return inTurn(this.#exclusive, roomId, () => this.#addStaged(roomId, drafts));
    }
    const events = await this.#store.write(() => {
      const room = { ...this.#room(roomId) };
      this.#checkRoom(roomId, room, drafts.length);
      const now = this.#now();
      const made: AnnotationEvent[] = drafts.map((draft) => {
        const annotation = toAnnotation(draft, { id: String(room.next++), version: 1, created: now, updated: now });
        return { op: 'add', annotation, version: ++room.version };
      });
      room.count += drafts.length;
      for (const { annotation } of made) this.#db.put(DISK.annotations.mark(roomId, annotation.id), annotation);
      this.#db.put(DISK.annotations.room(roomId), room);
      for (const entry of marksAdded({ version: room.version, annotations: made.map((e) => e.annotation) })) this.#log.appendNow(roomId, entry);
      return made;
    });
    this.#announce(roomId, events);
    return { version: events.at(-1)?.version ?? (await this.version(roomId)), annotations: events.map((e) => e.annotation) };
  }

  /**
   * A large batch: its ids reserved (and hidden), its marks written a chunk per transaction,
   * then shown in one last transaction with the room's version moved past them all. Refused
   * anywhere on the way (a full disk), nothing of it is shown and its hidden marks are removed.
   */
  async #addStaged(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    await removeLeftover(this.#store, roomId, this.#staging.chunk);
    const now = this.#now();
    const pending = await this.#store.write((): PendingImport => {
      const room = this.#room(roomId);
      this.#checkRoom(roomId, room, drafts.length);
      const reserved = { from: room.next, to: room.next + drafts.length };
      this.#marks.imports.put(roomId, reserved);
      this.#db.put(DISK.annotations.room(roomId), { ...room, next: reserved.to });
      return reserved;
    });
    let shown: AnnotationList;
    try {
      shown = await this.#show(roomId, await this.#writeHidden(roomId, pending, drafts, now));
    } catch (error) {
      // A disk still full refuses this removal too: the import's record then keeps its marks hidden until the next import or start removes them.
      await removePending(this.#store, roomId, pending, this.#staging.chunk).catch(() => undefined);
      throw error;
    }
    this.#announce(roomId, addedEvents(shown.annotations, shown.version));
    return shown;
  }

  /** The marks of a reserved import, written hidden a chunk per transaction. */
  async #writeHidden(roomId: string, pending: PendingImport, drafts: readonly AnnotationInput[], now: number): Promise<Annotation[]> {
    const annotations: Annotation[] = [];
    const { chunk, afterChunk } = this.#staging;
    for (const run of weighedRuns(drafts, chunk, pointsOf)) {
      await this.#store.write(() => {
        for (const draft of run) {
          const annotation = toAnnotation(draft, { id: String(pending.from + annotations.length), version: 1, created: now, updated: now });
          this.#db.put(DISK.annotations.mark(roomId, annotation.id), annotation);
          annotations.push(annotation);
        }
      });
      await afterChunk?.(annotations.length);
    }
    return annotations;
  }

  /** Shows an import's written marks: the room's new version, its record gone and its log entries, in one transaction. */
  async #show(roomId: string, annotations: Annotation[]): Promise<AnnotationList> {
    // Its log entries encoded beforehand, a turn each, for the room as it is now: the transaction then only puts their bytes.
    const before = this.#room(roomId).version;
    const prepared = await this.#log.prepare(roomId, marksAdded({ version: before + annotations.length, annotations }));
    const version = await this.#store.write(() => {
      const room = this.#room(roomId);
      const shown = room.version + annotations.length;
      this.#db.put(DISK.annotations.room(roomId), { ...room, version: shown, count: room.count + annotations.length });
      this.#marks.imports.remove(roomId);
      if (room.version === before) this.#log.appendPrepared(prepared);
      else for (const entry of marksAdded({ version: shown, annotations })) this.#log.appendNow(roomId, entry);
      return shown;
    });
    return { version, annotations };
  }

  async change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent> {
    await this.#ready;
    const event = await this.#store.write((): AnnotationEvent => {
      const current = this.#marks.found(roomId, id, expected);
      const annotation = changedAnnotation(current, patch, this.#now());
      const room = this.#room(roomId);
      this.#db.put(DISK.annotations.mark(roomId, id), annotation);
      this.#db.put(DISK.annotations.room(roomId), { ...room, version: room.version + 1 });
      const event: AnnotationEvent = { op: 'change', annotation, version: room.version + 1 };
      this.#log.appendNow(roomId, markChanged(event));
      return event;
    });
    this.#announce(roomId, [event]);
    return event;
  }

  async remove(roomId: string, id: string, expected?: number): Promise<AnnotationEvent> {
    await this.#ready;
    const event = await this.#store.write((): AnnotationEvent => {
      const annotation = this.#marks.found(roomId, id, expected);
      const room = this.#room(roomId);
      this.#db.remove(DISK.annotations.mark(roomId, id));
      this.#db.put(DISK.annotations.room(roomId), { ...room, version: room.version + 1, count: room.count - 1 });
      const event: AnnotationEvent = { op: 'remove', annotation, version: room.version + 1 };
      this.#log.appendNow(roomId, markChanged(event));
      return event;
    });
    this.#announce(roomId, [event]);
    return event;
  }

  async replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
    await this.#ready;
    // Not beside an import under way: its hidden ids could be among those restored.
    return inTurn(this.#exclusive, roomId, () => this.#replace(roomId, annotations));
  }

  async #replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
    await removeLeftover(this.#store, roomId, this.#staging.chunk);
    const incoming = [...annotations].sort(byId);
    const events = await this.#store.write(() => {
      const room = { ...this.#room(roomId) };
      const made: AnnotationEvent[] = [];
      for (const annotation of this.#marks.now(roomId)) {
        this.#db.remove(DISK.annotations.mark(roomId, annotation.id));
        made.push({ op: 'remove', annotation, version: ++room.version });
      }
      for (const annotation of incoming) {
        this.#db.put(DISK.annotations.mark(roomId, annotation.id), annotation);
        made.push({ op: 'add', annotation, version: ++room.version });
      }
      this.#db.put(DISK.annotations.room(roomId), { version: room.version, next: Math.max(room.next, nextIdAfter(incoming)), count: incoming.length });
      this.#log.appendNow(roomId, marksReplaced(incoming, room.version));
      return { made, version: room.version };
    });
    this.#announce(roomId, events.made);
    return events.version;
  }

  close(): void {}
}
