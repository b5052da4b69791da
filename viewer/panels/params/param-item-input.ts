/**
 * @module param-item-input
 * A compact input for one scalar value inside a vector or a list: a number field (integer
 * steps for integers, bounds as min/max), a dropdown for an enum, a checkbox for a boolean, a
 * colour picker for a colour, a text field otherwise. Invalid text is marked and not sent.
 */
import type { ParameterProperty } from '../../../core/wire/wire-types.ts';
import { h } from '../../dom.ts';
import { checkValue, fieldKind, formatNumber } from './param-check.ts';
import type { ControlChange, ParamControl } from './param-control.ts';
import { createColorControl } from './param-color.ts';

/** One item's input; `label` is its accessible name (e.g. `axis x`). */
export function createItemInput(prop: ParameterProperty, label: string, onChange: ControlChange): ParamControl {
  const kind = fieldKind(prop);
  if (kind === 'color') return createColorControl(label, onChange);
  let element: HTMLInputElement | HTMLSelectElement;
  let setValue: (value: unknown) => void;
  const mark = (value: unknown): void => {
    element.classList.toggle('item-invalid', checkValue(prop, value) !== null);
  };
  if (kind === 'enum') {
    const select = h('select', { class: 'select item-input', 'aria-label': label });
    for (const option of prop.enum ?? []) select.appendChild(h('option', { value: JSON.stringify(option) }, String(option)));
    select.addEventListener('change', () => onChange(JSON.parse(select.value), 'commit'));
    element = select;
    setValue = (value) => void (select.value = JSON.stringify(value));
  } else if (kind === 'boolean') {
    const box = h('input', { type: 'checkbox', class: 'item-input item-check', 'aria-label': label });
    box.addEventListener('change', () => onChange(box.checked, 'commit'));
    element = box;
    setValue = (value) => void (box.checked = value === true);
  } else if (kind === 'slider' || kind === 'number') {
    const input = h('input', {
      type: 'number',
      class: 'num item-input',
      step: prop.type === 'integer' ? 1 : 'any',
      min: prop.minimum,
      max: prop.maximum,
      inputmode: 'decimal',
      'aria-label': label,
    });
    const read = (mode: 'drag' | 'commit'): void => {
      const text = input.value.trim();
      const value = text === '' ? NaN : Number(text);
      if (Number.isNaN(value)) {
        input.classList.add('item-invalid');
        return;
      }
      mark(value);
      onChange(value, mode);
    };
    input.addEventListener('input', () => read('drag'));
    input.addEventListener('change', () => read('commit'));
    element = input;
    setValue = (value) => {
      input.value = formatNumber(value);
      mark(value);
    };
  } else {
    const text = h('input', { type: 'text', class: 'text item-input', spellcheck: false, autocomplete: 'off', 'aria-label': label });
    text.addEventListener('input', () => onChange(text.value, 'drag'));
    text.addEventListener('change', () => onChange(text.value, 'commit'));
    element = text;
    setValue = (value) => void (text.value = typeof value === 'string' ? value : '');
  }
  return { element, setValue, setDisabled: (disabled) => void (element.disabled = disabled) };
}
