/**
 * @module link-camera
 * The camera in a shared link: each time the user stops moving the camera its pose goes into
 * the URL (`cam`), and a page opened on a link with one puts the camera there once its first
 * content is shown, instead of where framing the content would.
 */
import type { Stage } from './stage.ts';
import { readCameraPose, writeCameraPose } from '../url-state.ts';

/** Keeps `stage`'s camera in the URL, and puts it where the link says once content is first shown. */
export function linkCamera(stage: Stage): void {
  let pending = readCameraPose();
  stage.view.onRest(() => writeCameraPose(stage.view.pose()));
  stage.onShown(() => {
    if (!pending) return;
    stage.view.setPose(pending);
    stage.invalidate();
    pending = null;
  });
}
