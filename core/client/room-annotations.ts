/**
 * @module room-annotations
 * One room's annotations as a client sees them (`client.annotations(room)`): read the list
 * (JSON or CSV), add one or many (or import CSV), change with the version it read (`ifVersion`:
 * a 412 `VitrineHttpError` when someone changed it first), remove.
 *
 * @example
 * const marks = client.annotations('lab-1');
 * const ruler = await marks.add({ kind: 'line', points: [[0, 0, 0], [1.3, 0, 2]], label: 'crack' });
 * console.log(ruler.length);
 * await marks.change(ruler.id, { label: 'crack 2' }, { ifVersion: ruler.version });
 * const copy = marks.mirror();
 * void marks.follow(copy, { signal, onChange: () => draw(copy.annotations()) });
 */
import { AnnotationMirror, followAnnotations } from './annotation-mirror.ts';
import type { FollowOptions } from './follow-events.ts';
import type { Transport } from './transport.ts';
import type { Annotation, AnnotationInput, AnnotationList } from '../wire/scene-types.ts';

/** A change: the fields given replace the annotation's; `null` removes an optional one. */
export type AnnotationChange = Partial<AnnotationInput> & { [K in 'layer' | 'label' | 'color' | 'properties' | 'author']?: AnnotationInput[K] | null };

/** `If-Match` for a write: only while the annotation is at this version. */
export interface VersionCheck {
  ifVersion?: number;
  signal?: AbortSignal;
}

export class RoomAnnotations {
  readonly #http: Transport;
  readonly #path: string;

  constructor(http: Transport, readonly room: string) {
    this.#http = http;
    this.#path = `/api/rooms/${encodeURIComponent(room)}/annotations`;
  }

  /** `GET .../annotations`: the room's annotation version and every annotation, in id order. */
  list(signal?: AbortSignal): Promise<AnnotationList> {
    return this.#http.json('GET', this.#path, { signal });
  }

  /** The list as CSV, one row per point (id, kind, label, layer, point, x, y, z, length, volume, ...). */
  async csv(signal?: AbortSignal): Promise<string> {
    return (await this.#http.send('GET', this.#path, { query: { format: 'csv' }, signal })).text();
  }

  /** One annotation. @throws NotFoundError when the room holds no such id. */
  get(id: string, signal?: AbortSignal): Promise<Annotation> {
    return this.#http.json('GET', `${this.#path}/${encodeURIComponent(id)}`, { signal });
  }

  /** Adds one annotation (answers it) or several (all or none; answers them with the room's version after). */
  add(annotation: AnnotationInput, signal?: AbortSignal): Promise<Annotation>;
  add(annotations: AnnotationInput[], signal?: AbortSignal): Promise<AnnotationList>;
  add(input: AnnotationInput | AnnotationInput[], signal?: AbortSignal): Promise<Annotation | AnnotationList> {
    return this.#http.json('POST', this.#path, { body: input, signal });
  }

  /** Imports CSV in the export's shape (x, y, z required; rows of one id make one annotation). */
  importCsv(text: string, signal?: AbortSignal): Promise<AnnotationList> {
    return this.#http.json('POST', this.#path, { text: { type: 'text/csv', value: text }, signal });
  }

  /** Changes an annotation; answers it at its new version. */
  change(id: string, change: AnnotationChange, options: VersionCheck = {}): Promise<Annotation> {
    return this.#http.json('PATCH', `${this.#path}/${encodeURIComponent(id)}`, { body: change, signal: options.signal, ifMatch: options.ifVersion });
  }

  /** A copy of the room's list to keep in step with its events (see {@link follow}). */
  mirror(): AnnotationMirror {
    return new AnnotationMirror(() => this.list());
  }

  /**
   * Keeps `mirror` in step with the room (the list on every connection, then each change)
   * until `options.signal` aborts; `onChange` after each step.
   */
  follow(mirror: AnnotationMirror, options: FollowOptions & { onChange?: (mirror: AnnotationMirror) => void } = {}): Promise<never> {
    return followAnnotations(this.#http, this.room, mirror, options);
  }

  /** Removes an annotation. */
  async remove(id: string, options: VersionCheck = {}): Promise<void> {
    await this.#http.send('DELETE', `${this.#path}/${encodeURIComponent(id)}`, { signal: options.signal, ifMatch: options.ifVersion });
  }
}
