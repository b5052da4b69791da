/**
 * @module vector-mode
 * How a vector field is drawn: its magnitude, one of its components, or its direction as
 * colour (each component mapped from minus to plus the largest magnitude onto red, green and
 * blue). Each mode is the `c` a step is fetched with. The choice is this page's own: a room's
 * layer has no field for it.
 */
import { h, toolRow } from '../../dom.ts';
import type { StepChannel } from '../../time/step-cache.ts';

const COMPONENTS = ['x', 'y', 'z'];

/** The mode picker (`select[data-control=vector-mode]`); `picked` gets the `c` chosen. */
export function createVectorMode(initial: StepChannel, picked: (c: StepChannel) => void): HTMLElement {
  const select = h('select', { class: 'select small', 'aria-label': 'vector field shown as', 'data-control': 'vector-mode' });
  select.append(
    h('option', { value: 'magnitude' }, 'magnitude'),
    ...COMPONENTS.map((name, i) => h('option', { value: String(i) }, `component ${name}`)),
    h('option', { value: 'rgb' }, 'direction as RGB'),
  );
  select.value = String(initial);
  select.addEventListener('change', () =>
    picked(select.value === 'magnitude' || select.value === 'rgb' ? select.value : Number(select.value)),
  );
  return toolRow('label', 'show', null, select);
}
