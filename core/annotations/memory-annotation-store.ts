/**
 * @module memory-annotation-store
 * A lone host's annotations, in its memory: per room a map of id → annotation (in id order, as
 * ids only grow), the room's version and its next id. Every change is made, logged in the room's
 * log and announced on the host's event hub in one synchronous step, so events go out in version
 * order and the log has every change the room has. Bounded twice:
 * `maxPerRoom` per room and `maxPerHost` across rooms (a host alone keeps them in its heap).
 * Nothing survives the process: a host that must keep them runs with `--redis`. The last
 * CHANGE_LOG changes of each room are kept, so a follower that missed a few reads only those.
 */
import type { Annotation, AnnotationEvent, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { createHostError } from '../errors.ts';
import { changedAnnotation, type AnnotationPatch } from './annotation-patch.ts';
import { pointsOf, toAnnotation } from './annotation-record.ts';
import { addedEvents, ANNOTATION_EVENT, changeable, eventsOf, nextIdAfter, byId, type AnnotationStore } from './annotation-store.ts';
import { markChanged, marksAdded, marksReplaced } from '../history/room-changes.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import { inWeighedTurns } from '../memory/turn-batches.ts';

/**
 * Points of new marks made between two turns of the event loop (2,000 marks, or a long polyline
 * alone): an import of 100,000 marks copied and measured in one turn held every other request
 * for half a second.
 */
const RECORDS_PER_TURN = 2000;

interface RoomMarks {
  version: number;
  next: number;
  marks: Map<string, Annotation>;
  /** The latest changes, oldest first; every change after version `logFrom` is in it. */
  log: AnnotationEvent[];
  logFrom: number;
}

/** Changes a room keeps for followers that missed some. */
const CHANGE_LOG = 10_000;

export interface MemoryAnnotationLimits {
  maxPerRoom: number;
  maxPerHost: number;
}

/** Annotations one host keeps across its rooms by default (about 0.5 GB of heap at most). */
export const DEFAULT_MAX_PER_HOST = 1_000_000;

export class MemoryAnnotationStore implements AnnotationStore {
  readonly stableMarks = true;
  #rooms = new Map<string, RoomMarks>();
  #total = 0;
  #hub: EventHub;
  #limits: MemoryAnnotationLimits;
  #log: LogWriter;
  #now: () => number;

  /** `log`: the rooms' logs in this host's memory. */
  constructor(hub: EventHub, limits: MemoryAnnotationLimits, log: LogWriter, now: () => number = Date.now) {
    this.#hub = hub;
    this.#limits = limits;
    this.#log = log;
    this.#now = now;
  }

  #room(roomId: string): RoomMarks {
    let room = this.#rooms.get(roomId);
    if (!room) this.#rooms.set(roomId, (room = { version: 0, next: 1, marks: new Map(), log: [], logFrom: 0 }));
    return room;
  }

  #found(roomId: string, id: string, expected: number | undefined): Annotation {
    return changeable(this.#rooms.get(roomId)?.marks.get(id), roomId, id, expected);
  }

  /** Sends the events of `changes` changes (all of them, or the last alone when they are too many to keep). */
  #announce(roomId: string, events: readonly AnnotationEvent[], changes = events.length): void {
    this.#remember(this.#room(roomId), events, changes);
    for (const data of eventsOf(events)) this.#hub.publish(roomChannel(roomId), { event: ANNOTATION_EVENT, data });
  }

  #remember(room: RoomMarks, events: readonly AnnotationEvent[], changes: number): void {
    if (changes >= CHANGE_LOG) {
      room.log = [];
      room.logFrom = room.version;
      return;
    }
    room.log.push(...events);
    // Trimmed in halves, not one by one: each trim copies the log.
    if (room.log.length <= 2 * CHANGE_LOG) return;
    const dropped = room.log.length - CHANGE_LOG;
    room.logFrom = room.log[dropped - 1]!.version;
    room.log = room.log.slice(dropped);
  }

  async changesSince(roomId: string, since: number): Promise<AnnotationEvent[] | null> {
    const room = this.#rooms.get(roomId);
    const version = room?.version ?? 0;
    if (since === version) return [];
    if (!room || since < room.logFrom || since > version) return null;
    let from = room.log.length;
    while (from > 0 && room.log[from - 1]!.version > since) from--;
    return room.log.slice(from);
  }

  async list(roomId: string): Promise<AnnotationList> {
    const room = this.#rooms.get(roomId);
    return { version: room?.version ?? 0, annotations: room ? [...room.marks.values()] : [] };
  }

  async version(roomId: string): Promise<number> {
    return this.#rooms.get(roomId)?.version ?? 0;
  }

  async get(roomId: string, id: string): Promise<Annotation | null> {
    return this.#rooms.get(roomId)?.marks.get(id) ?? null;
  }

  async add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    this.#checkFits(roomId, drafts.length);
    const now = this.#now();
    const record = (draft: AnnotationInput) => toAnnotation(draft, { id: '', version: 1, created: now, updated: now });
    // Made before anything is shown, a batch per turn; ids and versions are given in one turn below.
    const records = (await inWeighedTurns(drafts, RECORDS_PER_TURN, pointsOf, (batch) => batch.map(record))).flat();
    // Checked again: others may have added to the room (or the host) while they were made.
    this.#checkFits(roomId, drafts.length);
    const room = this.#room(roomId);
    for (const annotation of records) {
      annotation.id = String(room.next++);
      room.marks.set(annotation.id, annotation);
    }
    room.version += records.length;
    this.#total += drafts.length;
    const added = { version: room.version, annotations: records };
    for (const entry of marksAdded(added)) this.#log.appendNow(roomId, entry);
    // An event per mark only while the room keeps them for followers: past that, one made for each of 100,000 marks is only garbage.
    this.#announce(roomId, addedEvents(records, room.version, records.length < CHANGE_LOG ? records.length : 1), records.length);
    return added;
  }

  #checkFits(roomId: string, more: number): void {
    const held = this.#rooms.get(roomId)?.marks.size ?? 0;
    if (held + more > this.#limits.maxPerRoom) {
      throw createHostError('SPC_ERR_ANNOTATIONS_FULL', roomId, String(this.#limits.maxPerRoom), `${more} more (it holds ${held})`);
    }
    if (this.#total + more > this.#limits.maxPerHost) throw createHostError('SPC_ERR_ANNOTATIONS_HOST_FULL', String(this.#limits.maxPerHost));
  }

  async change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent> {
    const current = this.#found(roomId, id, expected);
    const annotation = changedAnnotation(current, patch, this.#now());
    const room = this.#room(roomId);
    room.marks.set(id, annotation);
    const event: AnnotationEvent = { op: 'change', annotation, version: ++room.version };
    this.#log.appendNow(roomId, markChanged(event));
    this.#announce(roomId, [event]);
    return event;
  }

  async remove(roomId: string, id: string, expected?: number): Promise<AnnotationEvent> {
    const annotation = this.#found(roomId, id, expected);
    const room = this.#room(roomId);
    room.marks.delete(id);
    this.#total--;
    const event: AnnotationEvent = { op: 'remove', annotation, version: ++room.version };
    this.#log.appendNow(roomId, markChanged(event));
    this.#announce(roomId, [event]);
    return event;
  }

  async replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
    const room = this.#room(roomId);
    const incoming = [...annotations].sort(byId);
    if (this.#total - room.marks.size + incoming.length > this.#limits.maxPerHost)
      throw createHostError('SPC_ERR_ANNOTATIONS_HOST_FULL', String(this.#limits.maxPerHost));
    const events: AnnotationEvent[] = [...room.marks.values()].map((annotation) => ({ op: 'remove', annotation, version: ++room.version }));
    this.#total -= room.marks.size;
    room.marks = new Map(incoming.map((a) => [a.id, a]));
    this.#total += incoming.length;
    room.next = Math.max(room.next, nextIdAfter(incoming));
    for (const annotation of incoming) events.push({ op: 'add', annotation, version: ++room.version });
    this.#log.appendNow(roomId, marksReplaced(incoming, room.version));
    this.#announce(roomId, events);
    return room.version;
  }

  close(): void {
    this.#rooms.clear();
    this.#total = 0;
  }
}
