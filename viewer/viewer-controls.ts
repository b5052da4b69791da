/**
 * @module viewer-controls
 * The page's own controls around the views: where each view's element goes in the layout, and
 * what the stage's buttons (reset camera, save picture), the parameters' Reset button and the
 * room field do.
 */
import { h, smallButton } from './dom.ts';
import type { Layout } from './layout.ts';
import { pictureName, savePicture } from './panels/save-picture.ts';

/** The views the viewer places in its layout (the catalog's are its list and the Functions list). */
export type ViewElements = Record<'buildErrors' | 'head' | 'job' | 'follower' | 'overlay' | 'stats' | 'downloads', HTMLElement> & {
  catalog: HTMLElement[];
};

/** Puts each view where it belongs. */
export function mountViews(layout: Layout, views: ViewElements): void {
  layout.catalogPane.append(...views.catalog);
  layout.root.append(views.buildErrors);
  layout.inspector.prepend(views.head);
  layout.jobSection.append(views.job);
  layout.topbar.append(views.follower);
  layout.stagePane.append(views.overlay);
  layout.stageHud.append(views.stats);
  // In the top bar, always in sight; its list opens over the page.
  layout.topbar.insertBefore(views.downloads, layout.topbar.querySelector('.room'));
}

/** What the controls ask of the viewer. */
export interface ControlActions {
  resetCamera(): void;
  /** What Save picture reads (the stage's canvas; null without WebGL) and names the file after. */
  picture(): { canvas: HTMLCanvasElement | null; subject: string | null; room: string };
  resetParams(): void;
  setRoom(room: string): void;
}

/** Save picture; a failure shows on the button itself for a moment, with why in its tooltip. */
function savePictureButton(actions: ControlActions): HTMLElement {
  const title = 'Download what the stage shows as a PNG';
  const save = smallButton('Save picture', title, 'save-picture', () => {
    const { canvas, subject, room } = actions.picture();
    savePicture(canvas, pictureName(subject, room)).catch((error: unknown) => {
      save.textContent = 'Not saved';
      save.title = error instanceof Error ? error.message : String(error);
      setTimeout(() => Object.assign(save, { textContent: 'Save picture', title }), 3000);
    });
  });
  return save;
}

/** Adds the stage's buttons and listens to the Reset button and the room field. */
export function wireControls(layout: Layout, actions: ControlActions): void {
  layout.stagePane.append(
    h(
      'div',
      { class: 'stage-actions' },
      smallButton('Reset camera', 'Frame the specimen again', 'reset-camera', () => actions.resetCamera()),
      savePictureButton(actions),
    ),
  );
  layout.resetButton.addEventListener('click', () => actions.resetParams());
  layout.roomInput.addEventListener('change', () => actions.setRoom(layout.roomInput.value));
  layout.roomInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') actions.setRoom(layout.roomInput.value);
  });
}
