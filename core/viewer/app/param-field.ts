/**
 * @module param-field
 * One parameter's control, chosen from its schema property: a slider with a number field for
 * bounded numbers (integer steps for integers), a number field when unbounded, a dropdown for
 * an enum, a switch for a boolean, a text field for a string. The description is the hint; a
 * problem with the value is explained under the control.
 */
import type { ParameterProperty } from '../../client/wire-types.ts';
import { h } from './dom.ts';
import { checkValue, fieldKind, sliderStep } from './param-check.ts';
import { inputKindOf } from '../../params/input-schema.ts';
import { createInputField } from './input-field.ts';

/** How a change should be sent: `drag` is debounced, `commit` goes at once. */
export type ChangeMode = 'drag' | 'commit';

/** A rendered field. */
export interface ParamField {
  readonly name: string;
  readonly element: HTMLElement;
  /** Shows `value` without raising a change. */
  setValue(value: unknown): void;
}

/** Called with the new value (or `undefined` when the text cannot be read as a value at all). */
export type FieldChange = (name: string, value: unknown, mode: ChangeMode) => void;

function formatNumber(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '';
}

/** Builds the control for `name`. */
export function createParamField(name: string, prop: ParameterProperty, required: boolean, onChange: FieldChange): ParamField {
  const input = inputKindOf(prop);
  if (input) return createInputField(name, input, prop, required, onChange);
  const kind = fieldKind(prop);
  const id = `param-${name}`;
  const error = h('div', { class: 'field-error', role: 'status', 'aria-live': 'polite' });
  const showCheck = (value: unknown, unreadable?: string): void => {
    const problem = unreadable ?? checkValue(prop, value);
    error.textContent = problem ? `${name} ${problem}` : '';
    wrapper.classList.toggle('invalid', problem !== null);
  };
  const range =
    prop.type === 'integer' || prop.type === 'number'
      ? [typeof prop.minimum === 'number' ? `≥ ${prop.minimum}` : '', typeof prop.maximum === 'number' ? `≤ ${prop.maximum}` : '']
          .filter(Boolean)
          .join(', ')
      : '';
  const label = h(
    'label',
    { class: 'field-label', for: id },
    h('span', { class: 'field-name' }, name),
    required ? h('span', { class: 'field-required', title: 'required' }, '*') : null,
    h('span', { class: 'field-type' }, prop.enum ? 'choice' : (prop.type ?? 'any'), range ? ` · ${range}` : ''),
  );
  const wrapper = h('div', { class: `field field-${kind}`, 'data-param': name });
  const hint = prop.description ? h('p', { class: 'field-hint' }, prop.description) : null;
  let setValue: (value: unknown) => void;
  let control: HTMLElement;

  if (kind === 'slider' || kind === 'number') {
    const step = kind === 'slider' ? sliderStep(prop) : prop.type === 'integer' ? 1 : 'any';
    const number = h('input', { id, type: 'number', class: 'num', step, inputmode: 'decimal', 'aria-label': name });
    const read = (mode: ChangeMode): void => {
      const text = number.value.trim();
      const value = text === '' ? NaN : Number(text);
      if (Number.isNaN(value)) {
        showCheck(undefined, 'must be a number');
        return;
      }
      if (slider) slider.value = String(value);
      showCheck(value);
      onChange(name, value, mode);
    };
    number.addEventListener('input', () => read('drag'));
    number.addEventListener('change', () => read('commit'));
    let slider: HTMLInputElement | null = null;
    if (kind === 'slider') {
      slider = h('input', {
        type: 'range',
        class: 'slider',
        min: prop.minimum ?? 0,
        max: prop.maximum ?? 1,
        step,
        'aria-label': `${name} slider`,
      });
      const s = slider;
      const fromSlider = (mode: ChangeMode): void => {
        const value = Number(s.value);
        number.value = formatNumber(value);
        showCheck(value);
        onChange(name, value, mode);
      };
      s.addEventListener('input', () => fromSlider('drag'));
      s.addEventListener('change', () => fromSlider('commit'));
    }
    control = h('div', { class: 'field-row' }, slider, number);
    setValue = (value) => {
      number.value = formatNumber(value);
      if (slider && typeof value === 'number') slider.value = String(value);
      showCheck(value);
    };
  } else if (kind === 'enum') {
    const select = h('select', { id, class: 'select' });
    for (const option of prop.enum ?? []) select.appendChild(h('option', { value: JSON.stringify(option) }, String(option)));
    select.addEventListener('change', () => {
      const value: unknown = JSON.parse(select.value);
      showCheck(value);
      onChange(name, value, 'commit');
    });
    control = select;
    setValue = (value) => {
      select.value = JSON.stringify(value);
      showCheck(value);
    };
  } else if (kind === 'boolean') {
    const box = h('input', { id, type: 'checkbox', class: 'switch', role: 'switch' });
    box.addEventListener('change', () => onChange(name, box.checked, 'commit'));
    control = h('div', { class: 'field-row' }, box, h('label', { for: id, class: 'switch-label' }, 'enabled'));
    setValue = (value) => {
      box.checked = value === true;
      showCheck(value);
    };
  } else {
    const text = h('input', { id, type: 'text', class: 'text', spellcheck: false, autocomplete: 'off' });
    text.addEventListener('input', () => onChange(name, text.value, 'drag'));
    text.addEventListener('change', () => onChange(name, text.value, 'commit'));
    control = text;
    setValue = (value) => {
      text.value = typeof value === 'string' ? value : JSON.stringify(value ?? '');
      showCheck(value);
    };
  }
  wrapper.append(label, control, error);
  if (hint) wrapper.append(hint);
  return { name, element: wrapper, setValue };
}
