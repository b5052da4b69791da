/**
 * @module link-camera
 * The camera in a shared link: each time the user stops moving the camera its pose goes into
 * the URL (`cam`), and a page opened on a link with one puts the camera there once its first
 * content is shown, instead of where framing the content would.
 */
import type { Stage } from './stage.ts';
import { readCameraPose, writeCameraPose } from '../url-state.ts';

export class LinkCamera {
  readonly #stage: Stage;
  #pending: number[] | null = readCameraPose();

  constructor(stage: Stage) {
    this.#stage = stage;
    stage.view.onRest(() => writeCameraPose(stage.view.pose()));
    stage.onShown(() => this.#shown());
  }

  /** After content was shown: the link's pose, the first time. */
  #shown(): void {
    if (!this.#pending) return;
    this.#stage.view.setPose(this.#pending);
    this.#stage.invalidate();
    this.#pending = null;
  }
}
