/**
 * @module redis-annotation-store
 * A Redis service's annotations: one hash per room (id → the annotation's JSON) beside the
 * room's version and last id, shared by every host and kept across their restarts (as long as
 * Redis keeps its data). Ids are taken from the room's counter before the annotations are
 * written, so two hosts adding at once never make the same id, and an id is never made twice.
 * Each write is one script (redis/annotation-scripts.ts) that also appends it to the room's
 * log and publishes its event on the service's room channel, which every host's subscription
 * hands to its room streams. A change
 * without `If-Match` is made on the version it read; when another change came first it reads
 * again and applies the patch on top, so concurrent changes are neither lost nor refused.
 */
import type { Annotation, AnnotationEvent, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';
import { createHostError } from '../errors.ts';
import { KEYS } from '../redis/redis-keys.ts';
import type { ScriptedRedis } from '../redis/redis-scripts.ts';
import { orUnavailable } from '../redis/redis-unavailable.ts';
import { storedJson } from '../redis/stored-json.ts';
import { changedAnnotation, type AnnotationPatch } from './annotation-patch.ts';
import { toAnnotation } from './annotation-record.ts';
import { byId, changeable, EVENT_BATCH_LIMIT, nextIdAfter, onlyLastEvent, type AnnotationStore } from './annotation-store.ts';
import type { RedisRoomLog } from '../history/redis-room-log.ts';
import { LOGGED_MARKS } from '../history/room-changes.ts';

/** Annotations read per round trip when listing a room. */
const LIST_PAGE = 2000;

/** Attempts at a change without `If-Match` while other changes of the same annotation keep coming first. */
const CHANGE_ATTEMPTS = 50;

const parse = (json: string) => storedJson(json) as Annotation | null;

export class RedisAnnotationStore implements AnnotationStore {
  #redis: ScriptedRedis;
  #maxPerRoom: number;
  #log: Pick<RedisRoomLog, 'actorArgs'>;
  #now: () => number;

  /** `log`: the service's room logs, each change's entries made by the script that makes it (which makes the room's version). */
  constructor(redis: ScriptedRedis, maxPerRoom: number, log: Pick<RedisRoomLog, 'actorArgs'>, now: () => number = Date.now) {
    this.#redis = redis;
    this.#maxPerRoom = maxPerRoom;
    this.#log = log;
    this.#now = now;
  }

  /** What every script of a room's marks starts with: the room, as JSON too, and its log's arguments. */
  #head(roomId: string): (string | number)[] {
    return [roomId, JSON.stringify(roomId), ...this.#log.actorArgs()];
  }

  /**
   * Read in pages (a room of 100,000 annotations is tens of megabytes: one reply of it would
   * hold the connection past its time limit). The version is read first, so the list holds at
   * least that version's annotations and perhaps some changes after it; a follower that applies
   * the events past the version on top (by id) ends where the room is either way.
   */
  async list(roomId: string): Promise<AnnotationList> {
    const version = await this.version(roomId);
    const found = new Map<string, Annotation>();
    let cursor = '0';
    do {
      const [next, flat] = await orUnavailable(this.#redis.hscan(KEYS.annotations(roomId), cursor, 'COUNT', LIST_PAGE));
      for (let i = 1; i < flat.length; i += 2) {
        const annotation = parse(flat[i]!);
        if (annotation) found.set(annotation.id, annotation);
      }
      cursor = next;
    } while (cursor !== '0');
    return { version, annotations: [...found.values()].sort(byId) };
  }

  async version(roomId: string): Promise<number> {
    return Number((await orUnavailable(this.#redis.hget(KEYS.annotationMeta(roomId), 'version'))) ?? 0);
  }

  async get(roomId: string, id: string): Promise<Annotation | null> {
    const json = await orUnavailable(this.#redis.hget(KEYS.annotations(roomId), id));
    return json === null ? null : parse(json);
  }

  async add(roomId: string, drafts: readonly AnnotationInput[]): Promise<AnnotationList> {
    const last = await orUnavailable(this.#redis.hincrby(KEYS.annotationMeta(roomId), 'last', drafts.length));
    const now = this.#now();
    const added = drafts.map((draft, i) => toAnnotation(draft, { id: String(last - drafts.length + 1 + i), version: 1, created: now, updated: now }));
    const pairs = added.flatMap((a) => [a.id, JSON.stringify(a)]);
    // The script sends every event up to its batch limit, else only the last: 0 where the marks are too heavy to send each.
    const batch = onlyLastEvent(added) ? 0 : EVENT_BATCH_LIMIT;
    const [version, held] = (await orUnavailable(this.#redis.vAnnAdd(...this.#head(roomId), this.#maxPerRoom, batch, LOGGED_MARKS, ...pairs))) as [
      number,
      number,
    ];
    if (version === -1) throw createHostError('SPC_ERR_ANNOTATIONS_FULL', roomId, String(this.#maxPerRoom), `${drafts.length} more (it holds ${held})`);
    return { version, annotations: added };
  }

  async change(roomId: string, id: string, patch: AnnotationPatch, expected?: number): Promise<AnnotationEvent> {
    for (let attempt = 0; ; attempt++) {
      const current = changeable(await this.get(roomId, id), roomId, id, expected);
      const annotation = changedAnnotation(current, patch, this.#now());
      const [version, at] = (await orUnavailable(this.#redis.vAnnChange(...this.#head(roomId), id, current.version, JSON.stringify(annotation)))) as [
        number,
        number,
      ];
      if (version === -1) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', id, roomId);
      if (version >= 0) return { op: 'change', annotation, version };
      // Another change came between the read and the write.
      if (expected !== undefined || attempt + 1 >= CHANGE_ATTEMPTS)
        throw createHostError('SPC_ERR_ANNOTATION_STALE', id, String(expected ?? current.version), String(at));
    }
  }

  async remove(roomId: string, id: string, expected?: number): Promise<AnnotationEvent> {
    const [version, at, json] = (await orUnavailable(this.#redis.vAnnRemove(...this.#head(roomId), id, expected ?? ''))) as [number, number, string?];
    if (version === -1) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', id, roomId);
    if (version === -2) throw createHostError('SPC_ERR_ANNOTATION_STALE', id, String(expected), String(at));
    return { op: 'remove', annotation: parse(json!)!, version };
  }

  async replace(roomId: string, annotations: readonly Annotation[]): Promise<number> {
    const pairs = [...annotations].sort(byId).flatMap((a) => [a.id, JSON.stringify(a)]);
    const lastId = nextIdAfter(annotations) - 1;
    return Number(await orUnavailable(this.#redis.vAnnReplace(...this.#head(roomId), onlyLastEvent(annotations) ? 0 : EVENT_BATCH_LIMIT, lastId, ...pairs)));
  }

  close(): void {
    // The connection is the service's, closed with it.
  }
}
