/**
 * @module viewer-controls
 * The page's own controls around the views: where each view's element goes in the layout, and
 * what the stage's buttons (reset camera, save picture), the parameters' Reset button and the
 * room field do.
 */
import { h, smallButton } from './dom.ts';
import type { Layout } from './layout.ts';

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

/** Characters a file name keeps; anything else becomes a dash. */
const UNSAFE = /[^A-Za-z0-9._-]+/g;

/** The file name of a picture of `subject` (a specimen or function id; null when none) in `room`. */
function pictureName(subject: string | null, room: string): string {
  const parts = [subject ?? 'stage', room].map((part) => part.replace(UNSAFE, '-').replace(/^[-.]+|[-.]+$/g, '')).filter(Boolean);
  return `${parts.join('-').slice(0, 120) || 'stage'}.png`;
}

/**
 * "Save picture": what `canvas` shows now, downloaded as the PNG file `name` at the canvas's own
 * size; rejects with why when there is nothing to read (no WebGL). The stage's renderer keeps its
 * last frame (preserveDrawingBuffer, stage.ts), and it only draws on a change, so reading the
 * canvas between frames gives exactly what is on screen, with no second render that could differ
 * from it. The file is named after what is shown and the room it is in (`brain-mri-lab.png`), so
 * pictures from several rooms do not overwrite each other.
 */
async function savePicture(canvas: HTMLCanvasElement | null, name: string): Promise<void> {
  if (!canvas) throw new Error('this page cannot draw (no WebGL), so there is no picture');
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the stage could not be read as a picture');
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the bytes once the click is handled; the URL is not needed after.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
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
