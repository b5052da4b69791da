/**
 * @module scale-bar
 * The page's scale bar, over the stage's lower right corner: a bar of a round length
 * (round-length.ts) in the physical unit of the room's frame, at most 150 px long, labelled
 * ("10 mm", "0.5 units" when the result states no unit). A perspective view has no single
 * scale: the bar measures at the depth of the point the camera orbits (the controls' target,
 * where the subject is framed), which is what zooming changes. The stage's content hangs in
 * the room's frame (the content root is identity on the page); the root's scale is still
 * divided out, so a bar never lies about the frame. Hidden while nothing is shown and in VR,
 * which draws a bar of its own beside the specimen (xr/vr-scale.ts).
 */
import * as THREE from 'three';
import { h } from '../dom.ts';
import { formatLength, SCALE_BAR_MAX_PX, scaleBarLength } from '../../core/wire/round-length.ts';
import type { Stage } from './stage.ts';

/** Physical units (of the frame under `root`) one CSS pixel spans at the depth of `target`, for a canvas `heightPx` tall. */
function unitsPerPixel(camera: THREE.Camera, target: THREE.Vector3, heightPx: number, root: THREE.Object3D): number {
  let worldHeight: number;
  if ((camera as THREE.PerspectiveCamera).isPerspectiveCamera) {
    const perspective = camera as THREE.PerspectiveCamera;
    const forward = perspective.getWorldDirection(new THREE.Vector3());
    const position = perspective.getWorldPosition(new THREE.Vector3());
    const depth = target.clone().sub(position).dot(forward);
    worldHeight = (2 * depth * Math.tan(THREE.MathUtils.degToRad(perspective.fov) / 2)) / perspective.zoom;
  } else {
    const ortho = camera as THREE.OrthographicCamera;
    worldHeight = (ortho.top - ortho.bottom) / ortho.zoom;
  }
  root.updateWorldMatrix(true, false);
  const rootScale = root.getWorldScale(new THREE.Vector3()).x;
  return worldHeight / heightPx / rootScale;
}

/** The page's scale bar for `stage`, kept up to date before each frame; `unit` is the room frame's unit (null while none is known). */
export function scaleBar(stage: Stage, unit: () => string | null): HTMLElement {
  const line = h('div', { class: 'scale-bar-line' });
  const labelElement = h('span', { class: 'scale-bar-label', 'data-testid': 'scale-bar-label' });
  const element = h(
    'div',
    {
      class: 'scale-bar',
      'data-testid': 'scale-bar',
      hidden: true,
      title: 'Scale at the depth the camera turns about, in the result’s units',
    },
    line,
    labelElement,
  );
  let shownNow = '';
  stage.onBeforeFrame(() => {
    const shown = stage.layers.list().some((layer) => layer.content && layer.root.visible);
    const height = stage.canvas.clientHeight;
    const bar =
      shown && !stage.renderer.xr.isPresenting && height > 0
        ? scaleBarLength(unitsPerPixel(stage.view.camera, stage.view.controls.target, height, stage.contentRoot), SCALE_BAR_MAX_PX)
        : null;
    const label = bar ? formatLength(bar, unit()) : '';
    const pixels = bar ? bar.pixels.toFixed(1) : '';
    // Called before every drawn frame: the page changes only when the bar does.
    if (`${label}|${pixels}` === shownNow) return;
    shownNow = `${label}|${pixels}`;
    element.hidden = !bar;
    if (!bar) return;
    line.style.width = `${pixels}px`;
    labelElement.textContent = label;
    // Readable from outside (tests): the length in physical units and in CSS pixels.
    element.dataset.length = String(bar.value);
    element.dataset.pixels = pixels;
  });
  return element;
}
