/**
 * @module mark-store
 * The page's copy of its room's annotations and the writes it makes to them. The copy is kept
 * from the room's `annotation` events on a stream of its own, whether or not the page follows
 * the room (everyone's marks show on every page of the room): the list is read on every
 * (re)connection, then each change is applied in version order, and a gap reads the list again
 * (the client's AnnotationMirror). A label is changed with the version this page read, so an
 * edit made on top of someone else's newer one is refused rather than lost.
 */
import type { AnnotationMirror } from '../../../client/annotation-mirror.ts';
import type { VitrineClient } from '../../../client/client.ts';
import { isAbortError } from '../../../client/errors.ts';
import type { RoomAnnotations } from '../../../client/room-annotations.ts';
import type { Annotation, AnnotationInput } from '../../../client/scene-types.ts';

export class MarkStore {
  readonly #client: VitrineClient;
  readonly #changed: (marks: Annotation[], known: boolean) => void;
  #room: string | null = null;
  #marks: RoomAnnotations | null = null;
  #mirror: AnnotationMirror | null = null;
  #controller: AbortController | null = null;

  /** `changed` after every change of the copy; with [] and `known` false when the room changed and its list is not read yet. */
  constructor(client: VitrineClient, changed: (marks: Annotation[], known: boolean) => void) {
    this.#client = client;
    this.#changed = changed;
  }

  /** The room whose marks these are (null before the page named one). */
  get room(): string | null {
    return this.#room;
  }

  /** The marks, in id order. */
  list(): Annotation[] {
    return this.#mirror?.annotations() ?? [];
  }

  /** Follows `room`'s marks (the previous room's stream closes). */
  setRoom(room: string): void {
    if (room === this.#room) return;
    this.#controller?.abort();
    this.#room = room;
    const controller = new AbortController();
    this.#controller = controller;
    const marks = (this.#marks = this.#client.annotations(room));
    const mirror = (this.#mirror = marks.mirror());
    this.#changed([], false);
    const onChange = (): void => {
      if (this.#mirror === mirror) this.#changed(mirror.annotations(), true);
    };
    marks.follow(mirror, { signal: controller.signal, onChange }).catch((error: unknown) => {
      // Aborted when the page moved on; otherwise the stream gave up reconnecting: the marks shown stay.
      if (!controller.signal.aborted && !isAbortError(error)) console.warn('The room’s annotation stream ended:', error);
    });
  }

  /** Adds a mark; it shows once its event arrives (on every page alike). */
  add(draft: AnnotationInput): Promise<Annotation> {
    return this.#room === null ? Promise.reject(new Error('the page has not joined its room yet; try again in a moment')) : this.#marks!.add(draft);
  }

  /** Sets `mark`'s label ('' removes it: the host keeps no empty label), only if nobody changed it since this page read it (else a 412). */
  relabel(mark: Annotation, label: string): Promise<Annotation> {
    return this.#marks!.change(mark.id, { label }, { ifVersion: mark.version });
  }

  /** Removes `mark`, only if nobody changed it since this page read it. */
  remove(mark: Annotation): Promise<void> {
    return this.#marks!.remove(mark.id, { ifVersion: mark.version });
  }

  /** Reads the list again (after a refused edit: the page then shows what the room holds). */
  async reload(): Promise<void> {
    const mirror = this.#mirror;
    if (!mirror) return;
    await mirror.reload();
    if (this.#mirror === mirror) this.#changed(mirror.annotations(), true);
  }
}
