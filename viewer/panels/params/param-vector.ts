/**
 * @module param-vector
 * A fixed tuple as a row of fields, one per position, labelled x, y, z, w for a numeric tuple
 * of up to four values and 1, 2, 3 ... otherwise. Each edit sends the whole tuple.
 */
import type { ParameterProperty } from '../../../core/wire/wire-types.ts';
import { h } from '../../dom.ts';
import { itemSchema } from './param-check.ts';
import { disableAll, type ControlChange, type ParamControl } from './param-control.ts';
import { createItemInput } from './param-item-input.ts';

const AXES = ['x', 'y', 'z', 'w'];

function positionLabels(prop: ParameterProperty): string[] {
  const items = prop.prefixItems ?? [];
  const numeric = items.every((item) => item.type === 'number' || item.type === 'integer');
  return items.map((_, i) => (numeric && items.length <= AXES.length ? AXES[i]! : String(i + 1)));
}

/** The vector control of tuple parameter `name`. */
export function createVectorControl(name: string, prop: ParameterProperty, onChange: ControlChange): ParamControl {
  let values: unknown[] = [];
  const labels = positionLabels(prop);
  const inputs = labels.map((label, i) =>
    createItemInput(itemSchema(prop, i), `${name} ${label}`, (value, mode) => {
      values = [...values];
      values[i] = value;
      onChange(values, mode);
    }),
  );
  const element = h(
    'div',
    { class: 'vector-control', role: 'group', 'aria-label': name },
    ...inputs.map((input, i) => h('label', { class: 'vector-cell' }, h('span', { class: 'vector-axis' }, labels[i]!), input.element)),
  );
  return {
    element,
    setValue(value) {
      values = Array.isArray(value) ? [...value] : [];
      inputs.forEach((input, i) => input.setValue(values[i]));
    },
    setDisabled: (disabled) => disableAll(element, disabled),
  };
}
