/**
 * @module value-readout
 * What is under the cursor, over every layer of the stage (stage-pick.ts): a volume's voxel
 * (x, y, z indices) and its sample, a segmentation's label id and name, or that it is a
 * surface or a point. With more than one layer shown, the layer's name comes first. Under it,
 * where that is in physical units: x, y, z in the frame of the layer it was picked on (before
 * the layer's affine, as marks made there are) and that frame's unit ("units" when the result
 * states none); a voxel stands for its centre, origin + spacing × index. Off everything it
 * says so. One pick per animation frame at most, whatever the mouse does; a camera that moves
 * under a still pointer picks again.
 */
import { h, toolRow } from '../../dom.ts';
import { formatValue } from '../../../core/wire/format-value.ts';
import { NO_UNIT } from '../../../core/wire/round-length.ts';
import type { Stage } from '../../stage/stage.ts';
import type { StagePick } from '../../stage/stage-pick.ts';

const IDLE = 'point at a slice';
const IDLE_POSITION = '–';

/** The readout's words for a pick. */
export function describePick(pick: StagePick): string {
  const voxel = pick.voxel;
  // Where a surface or a point is, the row under it says (formatPosition), with its unit.
  const at = voxel ? ` at x ${voxel.x}, y ${voxel.y}, z ${voxel.z}` : '';
  if (pick.label) return `label ${pick.label.id}${pick.label.name ? ` ${pick.label.name}` : ''}${at}`;
  if (voxel) return `${formatValue(voxel.value)}${at}`;
  return pick.kind;
}

/** A point in physical units: `x 1.5, y 2, z 0.25 mm` ("units" when the frame states none). */
export function formatPosition(point: readonly number[], unit: string | null): string {
  const [x, y, z] = point.map((v) => formatValue(v));
  return `x ${x}, y ${y}, z ${z} ${unit || NO_UNIT}`;
}

/** The point a pick names in its layer's frame: a voxel's centre, else the point itself. */
export function positionOf(pick: StagePick): number[] {
  return (pick.voxel ? pick.place.local : pick.local).toArray();
}

/**
 * Shows what is under the cursor on `stage`; `nameOf` names a layer (null: no prefix), `unitOf`
 * gives the physical unit of a layer's frame (null while none is known).
 */
export function attachValueReadout(
  stage: Stage,
  nameOf: (layer: string) => string | null = () => null,
  unitOf: (layer: string) => string | null = () => null,
): { element: HTMLElement; dispose(): void } {
  const text = h('output', { class: 'value-readout-text', 'data-testid': 'value-readout' }, IDLE);
  const position = h('output', { class: 'value-readout-text', 'data-testid': 'pointer-position' }, IDLE_POSITION);
  const element = h(
    'div',
    { class: 'value-readout' },
    toolRow('div', 'value', 'What is under the cursor: the voxel and its value, a label, a surface', text),
    toolRow('div', 'at', 'Where that is, in the physical units of its layer (a voxel’s centre)', position),
  );
  let pending: PointerEvent | null = null;
  let frame = 0;
  const show = (pick: StagePick | null): void => {
    if (!pick) {
      text.textContent = IDLE;
      position.textContent = IDLE_POSITION;
      for (const key of ['value', 'layer', 'label', 'point']) text.dataset[key] = '';
      position.dataset.position = '';
      return;
    }
    const several = stage.layers.list().filter((layer) => layer.content && layer.root.visible).length > 1;
    const name = several ? (nameOf(pick.layer) ?? pick.layer) : null;
    text.textContent = `${name ? `${name}: ` : ''}${describePick(pick)}`;
    text.dataset.value = pick.voxel ? String(pick.voxel.value) : '';
    text.dataset.layer = pick.layer;
    text.dataset.label = pick.label ? String(pick.label.id) : '';
    text.dataset.point = JSON.stringify(pick.room.toArray().map((v) => Number(v.toPrecision(6))));
    const unit = unitOf(pick.layer);
    const at = positionOf(pick);
    position.textContent = formatPosition(at, unit);
    position.dataset.position = JSON.stringify(at.map((v) => Number(v.toPrecision(6))));
    position.dataset.unit = unit ?? '';
  };
  const onMove = (event: PointerEvent): void => {
    pending = event;
    frame ||= requestAnimationFrame(() => {
      frame = 0;
      if (pending) show(stage.pickAt(pending.clientX, pending.clientY));
    });
  };
  const onLeave = (): void => {
    pending = null;
    show(null);
  };
  // A camera that moves (a wheel's zoom, a room's camera) puts something else under a still pointer.
  const onCamera = (): void => {
    if (pending) onMove(pending);
  };
  stage.canvas.addEventListener('pointermove', onMove);
  stage.canvas.addEventListener('pointerleave', onLeave);
  stage.view.controls.addEventListener('change', onCamera);
  return {
    element,
    dispose() {
      cancelAnimationFrame(frame);
      stage.canvas.removeEventListener('pointermove', onMove);
      stage.canvas.removeEventListener('pointerleave', onLeave);
      stage.view.controls.removeEventListener('change', onCamera);
    },
  };
}
