/**
 * @module annotation-mirror
 * A follower's copy of a room's annotations, kept from the room's `annotation` events: each
 * event whose version is the next one is applied (add and change set the annotation by id,
 * remove deletes it); one already seen is skipped; a jump in versions (a missed event, a large
 * import that sent only its last, a reconnection) reads the list again and carries on from its
 * version. Events are applied one at a time in arrival order, so a list read while events keep
 * coming never loses one. `followAnnotations` runs it on a room's stream and reads the list on
 * every (re)connection.
 *
 * @example
 * const mirror = new AnnotationMirror(() => client.annotations('lab-1').list());
 * for await (const e of client.followRoom('lab-1', { signal, events: 'all' })) {
 *   if (e.event === 'state') await mirror.reload();
 *   else if (e.event === 'annotation') await mirror.apply(e.data);
 *   draw(mirror.annotations());
 * }
 */
import { followRoom, type FollowOptions } from './follow-events.ts';
import type { Annotation, AnnotationEvent, AnnotationList } from '../wire/scene-types.ts';
import type { Transport } from './transport.ts';

export class AnnotationMirror {
  #read: () => Promise<AnnotationList>;
  #marks = new Map<string, Annotation>();
  #version = -1;
  #queue: Promise<void> = Promise.resolve();
  /** How many times the list was read (the first time included). */
  reads = 0;

  constructor(read: () => Promise<AnnotationList>) {
    this.#read = read;
  }

  /** The room's annotation version this copy is at (-1 before the first read). */
  get version(): number {
    return this.#version;
  }

  /** The annotations, in id order. */
  annotations(): Annotation[] {
    return [...this.#marks.values()].sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  #then(step: () => Promise<void>): Promise<void> {
    this.#queue = this.#queue.then(step, step);
    return this.#queue;
  }

  async #load(): Promise<void> {
    const list = await this.#read();
    this.reads++;
    this.#marks = new Map(list.annotations.map((a) => [a.id, a]));
    this.#version = list.version;
  }

  /** Reads the list again (after a reconnection). */
  reload(): Promise<void> {
    return this.#then(() => this.#load());
  }

  /** Applies one event, reading the list again when it does not follow the last one. */
  apply(event: AnnotationEvent): Promise<void> {
    return this.#then(async () => {
      if (this.#version >= 0 && event.version <= this.#version) return;
      if (this.#version < 0 || event.version !== this.#version + 1) {
        await this.#load();
        // The list was read after the event was sent, so it holds it; a host's list may hold
        // later changes too, which their own events set again on top.
        if (event.version <= this.#version) return;
      }
      if (event.op === 'remove') this.#marks.delete(event.annotation.id);
      else this.#marks.set(event.annotation.id, event.annotation);
      this.#version = event.version;
    });
  }
}

/**
 * Keeps `mirror` in step with the room until `options.signal` aborts: the list on every
 * (re)connection, then each `annotation` event; `onChange` after each step.
 */
export async function followAnnotations(
  transport: Transport,
  room: string,
  mirror: AnnotationMirror,
  options: FollowOptions & { onChange?: (mirror: AnnotationMirror) => void } = {},
): Promise<never> {
  for await (const event of followRoom(transport, room, { ...options, events: 'all' })) {
    if (event.event === 'state') await mirror.reload();
    else if (event.event === 'annotation') await mirror.apply(event.data);
    else continue;
    options.onChange?.(mirror);
  }
  throw new Error('unreachable: followRoom never ends by itself');
}
