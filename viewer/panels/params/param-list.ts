/**
 * @module param-list
 * A list editor for an array parameter: one row per item with its own input and a remove
 * button, and an add button. `minItems` and `maxItems` are kept: remove is disabled at the
 * minimum, add at the maximum. Each edit, addition or removal sends the whole list.
 */
import type { ParameterProperty } from '../../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../../dom.ts';
import { initialValue, itemSchema } from './param-check.ts';
import type { ControlChange, ParamControl } from './param-control.ts';
import { createItemInput } from './param-item-input.ts';

function countText(prop: ParameterProperty, count: number): string {
  const { minItems: min, maxItems: max } = prop;
  const limits =
    min !== undefined && max !== undefined
      ? `${min}–${max}`
      : min !== undefined
        ? `at least ${min}`
        : max !== undefined
          ? `at most ${max}`
          : '';
  return `${count} item${count === 1 ? '' : 's'}${limits ? ` (${limits})` : ''}`;
}

/** The list editor of array parameter `name`. */
export function createListControl(name: string, prop: ParameterProperty, onChange: ControlChange): ParamControl {
  const item = itemSchema(prop, 0);
  let values: unknown[] = [];
  let disabled = false;
  const rows = h('ol', { class: 'list-rows', 'aria-label': `${name} items` });
  const count = h('span', { class: 'list-count', 'data-testid': 'list-count' });
  const add = h('button', { type: 'button', class: 'button small list-add', 'aria-label': `add ${name} item` }, '+ Add');
  const send = (mode: 'drag' | 'commit'): void => onChange([...values], mode);

  const render = (): void => {
    const atMin = values.length <= (prop.minItems ?? 0);
    const atMax = prop.maxItems !== undefined && values.length >= prop.maxItems;
    replaceChildren(
      rows,
      ...values.map((value, index) => {
        const input = createItemInput(item, `${name} item ${index + 1}`, (next, mode) => {
          values[index] = next;
          send(mode);
        });
        input.setValue(value);
        input.setDisabled(disabled);
        const remove = h(
          'button',
          { type: 'button', class: 'button small ghost list-remove', 'aria-label': `remove ${name} item ${index + 1}`, title: 'Remove' },
          '×',
        );
        remove.disabled = disabled || atMin;
        remove.addEventListener('click', () => {
          values.splice(index, 1);
          render();
          send('commit');
        });
        return h('li', { class: 'list-row' }, input.element, remove);
      }),
    );
    count.textContent = countText(prop, values.length);
    add.disabled = disabled || atMax;
  };
  add.addEventListener('click', () => {
    values.push(values.length > 0 ? structuredClone(values[values.length - 1]) : initialValue(item));
    render();
    send('commit');
  });

  const element = h('div', { class: 'list-control' }, rows, h('div', { class: 'list-foot' }, add, count));
  return {
    element,
    setValue(value) {
      values = Array.isArray(value) ? [...value] : [];
      render();
    },
    setDisabled(next) {
      disabled = next;
      render();
    },
  };
}
