/**
 * @module viewer-controls
 * The page's own controls around the views: where each view's element goes in the layout, and
 * what the reset-camera button, the parameters' Reset button and the room field do.
 */
import { h } from './dom.ts';
import type { Layout } from './layout.ts';

/** The views the viewer places in its layout. */
export interface ViewElements {
  catalog: HTMLElement[];
  buildErrors: HTMLElement;
  head: HTMLElement;
  job: HTMLElement;
  follower: HTMLElement;
  overlay: HTMLElement;
  stats: HTMLElement;
  downloads: HTMLElement;
}

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
  resetParams(): void;
  setRoom(room: string): void;
}

/** Adds the reset-camera button and listens to the Reset button and the room field. */
export function wireControls(layout: Layout, actions: ControlActions): void {
  layout.stagePane.append(
    h(
      'button',
      {
        class: 'button ghost small stage-reset',
        type: 'button',
        title: 'Frame the specimen again',
        'data-testid': 'reset-camera',
        onclick: () => actions.resetCamera(),
      },
      'Reset camera',
    ),
  );
  layout.resetButton.addEventListener('click', () => actions.resetParams());
  layout.roomInput.addEventListener('change', () => actions.setRoom(layout.roomInput.value));
  layout.roomInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') actions.setRoom(layout.roomInput.value);
  });
}
