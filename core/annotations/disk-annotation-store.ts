/**
 * @module disk-annotation-store
 * A lone host's annotations in its data folder (the `annotations` database): per room a record
 * of its version, next id and count (`[room, 'm']`) and each annotation under `[room, 'a', id]`.
 * Every change is checked, then written in one transaction with the room record, so a batch is
 * all there or none of it after any crash, ids are never made twice and versions go on from
 * where they were; its events go out once it is on disk, in version order.
 *
 * A large batch (an import of up to a room's 100,000 marks) is written in several transactions
 * instead, a few thousand marks each, so that no turn of the event loop holds the whole write:
 * its ids are reserved first and kept hidden from every read while they are written (the
 * `annotation-imports` database names the hidden range of each room), and a last small
 * transaction shows them all at once with the room's new version. Readers never see half an
 * import; one a crash interrupted is removed when the store opens again (disk-import-staging.ts).
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
import { addedEvents, clearInterrupted, pendingImports, removePending, shownBeside, STAGING, type PendingImport, type Staging } from './disk-import-staging.ts';

interface RoomRecord {
  version: number;
  next: number;
  count: number;
}

const NEW_ROOM: RoomRecord = { version: 0, next: 1, count: 0 };

/** Marks read between two turns of the event loop. */
const READ_BATCH = 500;

export class DiskAnnotationStore implements AnnotationStore {
  #store: DataStore;
  #hub: EventHub;
  #maxPerRoom: number;
  #now: () => number;
  #staging: Staging;
  /** Per room, the staged import or replacement under way: the next waits for it. */
  #exclusive = new Map<string, Promise<unknown>>();
  /** Imports a crash interrupted, being removed; every operation waits for it. */
  #ready: Promise<void>;

  constructor(store: DataStore, hub: EventHub, maxPerRoom: number, now: () => number = Date.now, staging: Staging = STAGING) {
    this.#store = store;
    this.#hub = hub;
    this.#maxPerRoom = maxPerRoom;
    this.#now = now;
    this.#staging = staging;
    this.#ready = clearInterrupted(store, staging.chunk);
  }

  get #db() {
    return this.#store.db<RoomRecord | Annotation>('annotations');
  }

  get #imports() {
    return pendingImports(this.#store);
  }

  #room(roomId: string): RoomRecord {
    return (this.#db.get([roomId, 'm']) as RoomRecord | undefined) ?? NEW_ROOM;
  }

  /** Whether mark `id` is shown: not among the ids an import in progress holds hidden. */
  #shown(roomId: string): (id: string) => boolean {
    return shownBeside(this.#imports.get(roomId));
  }

  /** The room's marks, unsorted; with `snapshot`, as the database held them when the range began, whatever is written meanwhile. */
  #range(roomId: string, snapshot?: true): Iterable<Annotation> {
    const shown = this.#shown(roomId);
    return this.#db
      .getRange({ start: [roomId, 'a'], end: [roomId, 'b'], ...(snapshot ? { snapshot } : {}) })
      .filter(({ key }) => shown(String((key as (string | number)[])[2])))
      .map(({ value }) => value as Annotation);
  }

  /** Mark `id`, unless it is missing or hidden. */
  #mark(roomId: string, id: string): Annotation | undefined {
    return this.#shown(roomId)(id) ? (this.#db.get([roomId, 'a', id]) as Annotation | undefined) : undefined;
  }

  /** Runs `work` once every earlier exclusive work of the room has ended. */
  #alone<T>(roomId: string, work: () => Promise<T>): Promise<T> {
    const before = this.#exclusive.get(roomId) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.#exclusive.set(roomId, settled);
    void settled.then(() => this.#exclusive.get(roomId) === settled && this.#exclusive.delete(roomId));
    return run;
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
    const current = this.#mark(roomId, id);
    if (!current) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', id, roomId);
    if (expected !== undefined && current.version !== expected)
      throw createHostError('SPC_ERR_ANNOTATION_STALE', id, String(expected), String(current.version));
    return current;
  }

  #announce(roomId: string, events: readonly AnnotationEvent[]): void {
    for (const data of eventsOf(events)) this.#hub.publish(roomChannel(roomId), { event: ANNOTATION_EVENT, data });
  }

  async list(roomId: string): Promise<AnnotationList> {
    await this.#ready;
    // The version read in the same turn as the range begins: the marks are that version's.
    const { version } = this.#room(roomId);
    return { version, annotations: await this.#marks(roomId) };
  }

  async version(roomId: string): Promise<number> {
    await this.#ready;
    return this.#room(roomId).version;
  }

  async get(roomId: string, id: string): Promise<Annotation | null> {
    await this.#ready;
    return this.#mark(roomId, id) ?? null;
  }

  /** Refuses `more` marks past the room's limit, counting those an import in progress holds. */
  #checkRoom(roomId: string, room: RoomRecord, more: number): void {
    const pending = this.#imports.get(roomId);
    const holds = room.count + (pending ? pending.to - pending.from : 0);
    if (holds + more > this.#maxPerRoom) {
      throw createHostError('SPC_ERR_ANNOTATIONS_FULL', roomId, String(this.#maxPerRoom), `${more} more (it holds ${holds})`);
    }
  }

  async add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    await this.#ready;
    if (drafts.length >= this.#staging.from) {
      // Refused at once when it cannot fit, rather than after the import under way; checked again when its ids are reserved.
      this.#checkRoom(roomId, this.#room(roomId), drafts.length);
      return this.#alone(roomId, () => this.#addStaged(roomId, drafts));
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
      for (const { annotation } of made) this.#db.put([roomId, 'a', annotation.id], annotation);
      this.#db.put([roomId, 'm'], room);
      return made;
    });
    this.#announce(roomId, events);
    return { version: events.at(-1)?.version ?? (await this.version(roomId)), annotations: events.map((e) => e.annotation) };
  }

  /**
   * A large batch: its ids reserved (and hidden), its marks written a chunk per transaction,
   * then shown in one last transaction with the room's version moved past them all.
   */
  async #addStaged(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    const now = this.#now();
    const pending = await this.#store.write((): PendingImport => {
      const room = this.#room(roomId);
      this.#checkRoom(roomId, room, drafts.length);
      const reserved = { from: room.next, to: room.next + drafts.length };
      this.#imports.put(roomId, reserved);
      this.#db.put([roomId, 'm'], { ...room, next: reserved.to });
      return reserved;
    });
    const annotations: Annotation[] = [];
    try {
      const { chunk, afterChunk } = this.#staging;
      for (let at = 0; at < drafts.length; at += chunk) {
        await this.#store.write(() => {
          for (const draft of drafts.slice(at, at + chunk)) {
            const annotation = toAnnotation(draft, { id: String(pending.from + annotations.length), version: 1, created: now, updated: now });
            this.#db.put([roomId, 'a', annotation.id], annotation);
            annotations.push(annotation);
          }
        });
        await afterChunk?.(annotations.length);
      }
    } catch (error) {
      await removePending(this.#store, roomId, pending, this.#staging.chunk).catch(() => undefined);
      throw error;
    }
    const version = await this.#store.write(() => {
      const room = this.#room(roomId);
      this.#db.put([roomId, 'm'], { ...room, version: room.version + drafts.length, count: room.count + drafts.length });
      this.#imports.remove(roomId);
      return room.version + drafts.length;
    });
    this.#announce(roomId, addedEvents(annotations, version));
    return { version, annotations };
  }

  async change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent> {
    await this.#ready;
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
    await this.#ready;
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
    await this.#ready;
    // Not beside an import under way: its hidden ids could be among those restored.
    return this.#alone(roomId, () => this.#replace(roomId, annotations));
  }

  async #replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
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
