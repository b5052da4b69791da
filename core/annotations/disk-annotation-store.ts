/**
 * @module disk-annotation-store
 * A lone host's annotations in its data folder (the `annotations` database): per room a record
 * of its version, next id and count (`[room, 'm']`) and each annotation under `[room, 'a', id]`.
 * Every change is checked, then written in one transaction with the room record, so a batch is
 * all there or none of it after any crash, ids are never made twice and versions go on from
 * where they were; its events go out once it is on disk, in version order.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Annotation, AnnotationEvent, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';
import type { DataStore } from '../durable/data-store.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createHostError } from '../errors.ts';
import { changedAnnotation, type AnnotationPatch } from './annotation-patch.ts';
import { toAnnotation } from './annotation-record.ts';
import { ANNOTATION_EVENT, byId, eventsOf, nextIdAfter, type AnnotationStore } from './annotation-store.ts';

interface RoomRecord {
  version: number;
  next: number;
  count: number;
}

const NEW_ROOM: RoomRecord = { version: 0, next: 1, count: 0 };

/** Marks read between two turns of the event loop. */
const READ_BATCH = 2000;

export class DiskAnnotationStore implements AnnotationStore {
  #store: DataStore;
  #hub: EventHub;
  #maxPerRoom: number;
  #now: () => number;

  constructor(store: DataStore, hub: EventHub, maxPerRoom: number, now: () => number = Date.now) {
    this.#store = store;
    this.#hub = hub;
    this.#maxPerRoom = maxPerRoom;
    this.#now = now;
  }

  get #db() {
    return this.#store.db<RoomRecord | Annotation>('annotations');
  }

  #room(roomId: string): RoomRecord {
    return (this.#db.get([roomId, 'm']) as RoomRecord | undefined) ?? NEW_ROOM;
  }

  /** The room's marks, unsorted; with `snapshot`, as the database held them when the range began, whatever is written meanwhile. */
  #range(roomId: string, snapshot?: true): Iterable<Annotation> {
    return this.#db.getRange({ start: [roomId, 'a'], end: [roomId, 'b'], ...(snapshot ? { snapshot } : {}) }).map(({ value }) => value as Annotation);
  }

  /** The room's marks at once (inside a write, which must not wait). */
  #marksNow(roomId: string): Annotation[] {
    return [...this.#range(roomId)].sort(byId);
  }

  /**
   * The room's marks, read a batch per turn of the event loop: a room of 100,000 marks is a
   * few hundred milliseconds of reading and decoding, which would hold every other request.
   */
  async #marks(roomId: string): Promise<Annotation[]> {
    const marks: Annotation[] = [];
    for (const mark of this.#range(roomId, true)) {
      marks.push(mark);
      if (marks.length % READ_BATCH === 0) await nextTurn();
    }
    return marks.sort(byId);
  }

  #found(roomId: string, id: string, expected: number | undefined): Annotation {
    const current = this.#db.get([roomId, 'a', id]) as Annotation | undefined;
    if (!current) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', id, roomId);
    if (expected !== undefined && current.version !== expected)
      throw createHostError('SPC_ERR_ANNOTATION_STALE', id, String(expected), String(current.version));
    return current;
  }

  #announce(roomId: string, events: readonly AnnotationEvent[]): void {
    for (const data of eventsOf(events)) this.#hub.publish(roomChannel(roomId), { event: ANNOTATION_EVENT, data });
  }

  async list(roomId: string): Promise<AnnotationList> {
    // The version read in the same turn as the range begins: the marks are that version's.
    const { version } = this.#room(roomId);
    return { version, annotations: await this.#marks(roomId) };
  }

  async version(roomId: string): Promise<number> {
    return this.#room(roomId).version;
  }

  async get(roomId: string, id: string): Promise<Annotation | null> {
    return (this.#db.get([roomId, 'a', id]) as Annotation | undefined) ?? null;
  }

  async add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    const events = await this.#store.write(() => {
      const room = { ...this.#room(roomId) };
      if (room.count + drafts.length > this.#maxPerRoom) {
        throw createHostError('SPC_ERR_ANNOTATIONS_FULL', roomId, String(this.#maxPerRoom), `${drafts.length} more (it holds ${room.count})`);
      }
      const now = this.#now();
      const made: AnnotationEvent[] = drafts.map((draft) => {
        const annotation = toAnnotation(draft, { id: String(room.next++), version: 1, created: now, updated: now });
        return { op: 'add', annotation, version: ++room.version };
      });
      room.count += drafts.length;
      for (const { annotation } of made) this.#db.put([roomId, 'a', annotation.id], annotation);
      this.#db.put([roomId, 'm'], room);
      return made;
    });
    this.#announce(roomId, events);
    return { version: events.at(-1)?.version ?? (await this.version(roomId)), annotations: events.map((e) => e.annotation) };
  }

  async change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent> {
    const event = await this.#store.write((): AnnotationEvent => {
      const current = this.#found(roomId, id, expected);
      const annotation = changedAnnotation(current, patch, this.#now());
      const room = this.#room(roomId);
      this.#db.put([roomId, 'a', id], annotation);
      this.#db.put([roomId, 'm'], { ...room, version: room.version + 1 });
      return { op: 'change', annotation, version: room.version + 1 };
    });
    this.#announce(roomId, [event]);
    return event;
  }

  async remove(roomId: string, id: string, expected?: number): Promise<AnnotationEvent> {
    const event = await this.#store.write((): AnnotationEvent => {
      const annotation = this.#found(roomId, id, expected);
      const room = this.#room(roomId);
      this.#db.remove([roomId, 'a', id]);
      this.#db.put([roomId, 'm'], { ...room, version: room.version + 1, count: room.count - 1 });
      return { op: 'remove', annotation, version: room.version + 1 };
    });
    this.#announce(roomId, [event]);
    return event;
  }

  async replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
    const incoming = [...annotations].sort(byId);
    const events = await this.#store.write(() => {
      const room = { ...this.#room(roomId) };
      const made: AnnotationEvent[] = [];
      for (const annotation of this.#marksNow(roomId)) {
        this.#db.remove([roomId, 'a', annotation.id]);
        made.push({ op: 'remove', annotation, version: ++room.version });
      }
      for (const annotation of incoming) {
        this.#db.put([roomId, 'a', annotation.id], annotation);
        made.push({ op: 'add', annotation, version: ++room.version });
      }
      this.#db.put([roomId, 'm'], { version: room.version, next: Math.max(room.next, nextIdAfter(incoming)), count: incoming.length });
      return { made, version: room.version };
    });
    this.#announce(roomId, events.made);
    return events.version;
  }

  close(): void {}
}
