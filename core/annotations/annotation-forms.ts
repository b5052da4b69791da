/**
 * @module annotation-forms
 * What the read routes make of a room's list (its JSON, its CSV, its precomputed collections)
 * made once per room version on this host and kept for the last few rooms read: a room of
 * 100,000 annotations is tens of megabytes of text, and Neuroglancer asks for a collection's
 * keys one after another. Each read asks the store for the room's version only (one small
 * command on a Redis service) and rebuilds when it moved; reads of a version being built wait
 * for that one build. The JSON and CSV are rendered in batches with the event loop free between
 * them (chunked-render.ts), each mark's text kept from the version before when the store hands out
 * the same marks again (memory; not disk or Redis, which decode them anew); each answer's ETag and
 * compressed variants are made once with it (cache/shared-answer.ts). The JSON and CSV name
 * each mark's units (mark-units.ts): a form is kept for the units it was made with, and made
 * again when a frame's unit changed (another active layer, a layer's new result).
 */
import type { AnnotationList } from '../wire/scene-types.ts';
import { renderCsvParts, renderJsonParts } from './chunked-render.ts';
import { sharedAnswer, type SharedAnswer } from '../cache/shared-answer.ts';
import type { AnnotationStore } from './annotation-store.ts';
import { precomputedCollection, type PrecomputedCollection } from './precomputed-collection.ts';
import { entriesOf, type PrecomputedEntry, type PrecomputedType } from './precomputed-entries.ts';
import { NO_UNITS, unitsKey, type FrameUnits } from './mark-units.ts';

/** Rooms whose forms one host keeps. */
const KEPT_ROOMS = 4;

interface RoomForms {
  version: number;
  list: Promise<AnnotationList>;
  /** Each form, with the key of the units it names. */
  json?: { units: string; answer: Promise<SharedAnswer> };
  csv?: { units: string; answer: Promise<SharedAnswer> };
  collections: Map<PrecomputedType, { collection: PrecomputedCollection; byId: Map<bigint, PrecomputedEntry> }>;
}

export class AnnotationForms {
  #store: Pick<AnnotationStore, 'list' | 'version' | 'stableMarks'>;
  #rooms = new Map<string, RoomForms>();

  constructor(store: Pick<AnnotationStore, 'list' | 'version' | 'stableMarks'>) {
    this.#store = store;
  }

  async #forms(roomId: string): Promise<RoomForms> {
    const version = await this.#store.version(roomId);
    let forms = this.#rooms.get(roomId);
    if (!forms || forms.version !== version) {
      forms = { version, list: this.#store.list(roomId), collections: new Map() };
      // A failed read is not kept.
      forms.list.catch(() => this.#rooms.get(roomId) === forms && this.#rooms.delete(roomId));
    }
    this.#rooms.delete(roomId);
    this.#rooms.set(roomId, forms);
    while (this.#rooms.size > KEPT_ROOMS) this.#rooms.delete(this.#rooms.keys().next().value!);
    return forms;
  }

  /** The room's list. */
  async list(roomId: string): Promise<AnnotationList> {
    return (await this.#forms(roomId)).list;
  }

  /**
   * The list as the JSON the routes answer, each mark naming its units in `units`, encoded
   * (hashed, compressed) once for every reader of the version and units.
   */
  async json(roomId: string, units: FrameUnits = NO_UNITS): Promise<SharedAnswer> {
    const forms = await this.#forms(roomId);
    const keep = this.#store.stableMarks === true;
    const key = unitsKey(units);
    const made = () => forms.list.then((list) => renderJsonParts(list, keep, units)).then((parts) => sharedAnswer(parts));
    if (forms.json?.units !== key) forms.json = { units: key, answer: made() };
    return forms.json.answer;
  }

  /** The list as CSV, one row per point with its units in `units`, encoded once. */
  async csv(roomId: string, units: FrameUnits = NO_UNITS): Promise<SharedAnswer> {
    const forms = await this.#forms(roomId);
    const keep = this.#store.stableMarks === true;
    const key = unitsKey(units);
    const made = () => forms.list.then((list) => renderCsvParts(list.annotations, keep, units)).then((parts) => sharedAnswer(parts));
    if (forms.csv?.units !== key) forms.csv = { units: key, answer: made() };
    return forms.csv.answer;
  }

  /** Collection `type` of the room, with its entries by id. */
  async collection(roomId: string, type: PrecomputedType): Promise<{ collection: PrecomputedCollection; byId: Map<bigint, PrecomputedEntry> }> {
    const forms = await this.#forms(roomId);
    const { annotations } = await forms.list;
    let made = forms.collections.get(type);
    if (!made) {
      const collection = precomputedCollection(type, entriesOf(type, annotations));
      made = { collection, byId: new Map(collection.entries.map((e) => [e.id, e])) };
      forms.collections.set(type, made);
    }
    return made;
  }
}
