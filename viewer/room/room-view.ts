/**
 * @module room-view
 * The followed room's look on this page: view-sync.ts keeps the settings in step, this file
 * connects them to what is on the stage. The content shown applies the window, colour map,
 * opacity and mode it has (a volume has all four) and reports the user's changes of them; the
 * stage applies and reports the camera. Content shown later takes the room's settings as it
 * appears; a camera that came before anything was shown is applied to the first content.
 * Nothing is shared while the page does not follow its room.
 */
import type { RoomView } from '../../core/wire/room-types.ts';
import type { Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import { ViewSync } from './view-sync.ts';

export interface RoomViewOptions {
  /** The stage, when the page can draw. */
  stage: Stage | null;
  /** The room the page follows; null while it follows none. */
  following(): string | null;
  /** Shares settings with `room` (PUT its view). */
  send(room: string, view: RoomView): Promise<void>;
  /** True while a peer this page follows leads its camera: the room's camera waits (presence/peer-follow.ts). */
  cameraLed?(): boolean;
}

export class RoomViewBinding {
  readonly #options: RoomViewOptions;
  readonly #sync: ViewSync;
  /** A room camera arrived with nothing on the stage to frame: applied to the next content. */
  #cameraOwed = false;
  /** The room the settings belong to (null: none followed). */
  #room: string | null = null;

  constructor(options: RoomViewOptions) {
    this.#options = options;
    this.#sync = new ViewSync({
      send: (view) => (this.#room === null ? Promise.resolve() : options.send(this.#room, view)),
      apply: (view) => this.#apply(view),
    });
    options.stage?.view.onMoved(() => {
      if (options.stage?.content) this.#local({ camera: options.stage.view.view() });
    });
  }

  /** A `view` event of the followed room. */
  remote(view: RoomView | null): void {
    if (this.#followed() !== null) this.#sync.remote(view);
  }

  /** `content` is now on the stage: it takes the room's settings and reports the user's. */
  attach(content: StageContent | null): void {
    if (!content) return;
    this.#followed();
    content.onViewChange = (change) => this.#local(change);
    const { camera, ...rest } = this.#sync.current;
    content.applyView?.(rest);
    this.#options.stage?.invalidate();
    if (camera && this.#cameraOwed) this.#options.stage?.setCameraView(camera);
    this.#cameraOwed = false;
  }

  #local(change: RoomView): void {
    if (this.#followed() !== null) this.#sync.local(change);
  }

  /** The followed room; when it changed (another room, or following stopped), its settings start afresh. */
  #followed(): string | null {
    const room = this.#options.following();
    if (room !== this.#room) {
      this.#room = room;
      this.#sync.reset();
      this.#cameraOwed = false;
    }
    return room;
  }

  #apply(view: RoomView): void {
    const { camera, ...rest } = view;
    const content = this.#options.stage?.content ?? null;
    content?.applyView?.(rest);
    this.#options.stage?.invalidate();
    if (!camera || this.#options.cameraLed?.()) return;
    if (content) this.#options.stage?.setCameraView(camera);
    else this.#cameraOwed = true;
  }
}
