/**
 * @module mark-store
 * The page's copy of its room's annotations and the writes it makes to them. While the page
 * follows its room, the copy is kept live from the room's events on the follower's one stream
 * (room-follower.ts): the list is read on every `state` (each (re)connection begins with one),
 * then each `annotation` event is applied in version order, a gap reading the list again (the
 * client's AnnotationMirror). A page that does not follow holds no stream: it reads the list
 * when it joins the room and after each of its own writes. A label is changed with the version
 * the user saw, so an edit made on top of someone else's newer one is refused, not lost.
 */
import type { AnnotationMirror } from '../../../core/client/annotation-mirror.ts';
import type { VitrineClient } from '../../../core/client/client.ts';
import type { RoomAnnotations } from '../../../core/client/room-annotations.ts';
import type { Annotation, AnnotationInput } from '../../../core/wire/scene-types.ts';
import type { RoomEvent } from '../../../core/wire/room-types.ts';

export class MarkStore {
  readonly #client: VitrineClient;
  readonly #changed: (marks: Annotation[], known: boolean) => void;
  #room: string | null = null;
  #live = false;
  #known = false;
  #marks: RoomAnnotations | null = null;
  #mirror: AnnotationMirror | null = null;

  /** `changed` after every change of the copy; with [] and `known` false when the room changed and its list is not read yet. */
  constructor(client: VitrineClient, changed: (marks: Annotation[], known: boolean) => void) {
    this.#client = client;
    this.#changed = changed;
  }

  /** The room whose marks these are (null before the page named one). */
  get room(): string | null {
    return this.#room;
  }

  /** The room's list has been read since the page joined it. */
  get known(): boolean {
    return this.#known;
  }

  /** The marks, in id order. */
  list(): Annotation[] {
    return this.#mirror?.annotations() ?? [];
  }

  /** Shows `room`'s marks; `live`: its events will come through {@link event}, else its list is read now. */
  setRoom(room: string, live: boolean): void {
    if (room !== this.#room) {
      this.#room = room;
      this.#marks = this.#client.annotations(room);
      this.#mirror = this.#marks.mirror();
      this.#known = false;
      this.#changed([], false);
    }
    this.#live = live;
    // A live copy reads the list on the stream's first `state`.
    if (!live) void this.reload();
  }

  /** A room event from the follower's stream. */
  event(event: RoomEvent): void {
    const mirror = this.#mirror;
    if (!this.#live || !mirror) return;
    if (event.event === 'state') void this.#step(mirror, () => mirror.reload());
    else if (event.event === 'annotation') void this.#step(mirror, () => mirror.apply(event.data));
  }

  /** Adds a mark; it shows once its event arrives (on every following page alike). */
  async add(draft: AnnotationInput): Promise<Annotation> {
    if (!this.#marks) throw new Error('the page has not joined its room yet; try again in a moment');
    return this.#written(await this.#marks.add(draft));
  }

  /** Sets `mark`'s label ('' removes it: the host keeps no empty label), only if nobody changed it since `mark`'s version (else a 412). */
  async relabel(mark: Annotation, label: string): Promise<Annotation> {
    return this.#written(await this.#marks!.change(mark.id, { label }, { ifVersion: mark.version }));
  }

  /** Removes `mark`, only if nobody changed it since this page read it. */
  async remove(mark: Annotation): Promise<void> {
    await this.#marks!.remove(mark.id, { ifVersion: mark.version });
    this.#written(undefined);
  }

  /** Reads the list again (joining a room unfollowed, after a write unfollowed, after a refused edit). */
  reload(): Promise<void> {
    const mirror = this.#mirror;
    return mirror ? this.#step(mirror, () => mirror.reload()) : Promise.resolve();
  }

  /** Unfollowed, no event will bring a write back: the list is read again. */
  #written<T>(answer: T): T {
    if (!this.#live) void this.reload().catch(() => undefined);
    return answer;
  }

  async #step(mirror: AnnotationMirror, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      // The marks shown stay; the next event or write reads the list again.
      console.warn('The room’s annotations could not be read:', error);
      return;
    }
    if (this.#mirror !== mirror) return;
    this.#known = true;
    this.#changed(mirror.annotations(), true);
  }
}
