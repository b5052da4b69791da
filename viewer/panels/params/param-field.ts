/**
 * @module param-field
 * One parameter's control, chosen from its schema property: a slider with a number field for
 * bounded numbers (integer steps for integers), a number field when unbounded, a dropdown for
 * an enum (numbers too), a switch for a boolean, a text field for a string, a colour picker
 * for a colour, a row of fields for a tuple (a vector), a list editor for an array, and a
 * specimen reference for an input. The description is the hint; a problem with the value is
 * explained under the control. An optional parameter with no default gets a switch to leave
 * it unset (then it is not sent).
 */
import type { ParameterProperty } from '../../../core/wire/wire-types.ts';
import { h } from '../../dom.ts';
import { checkValue, fieldKind, initialValue, isUnsettable } from './param-check.ts';
import { createColorControl } from './param-color.ts';
import type { ChangeMode, FieldChange, ParamControl, ParamField } from './param-control.ts';

export type { ChangeMode, FieldChange, ParamField } from './param-control.ts';
import { createListControl } from './param-list.ts';
import { withUnset } from './param-unset.ts';
import { createVectorControl } from './param-vector.ts';
import './param-controls.css';
import { numberFieldChars, sliderScale } from './slider-scale.ts';
import { inputKindOf } from '../../../core/wire/input-schema.ts';
import { createInputField } from './input-field.ts';


/** A rendered field. */

function formatNumber(value: unknown): string {
  return typeof value === 'number' && Number.isFinite(value) ? String(Number(value.toPrecision(12))) : '';
}

/** Builds the control for `name`. */
export function createParamField(name: string, prop: ParameterProperty, required: boolean, notify: FieldChange): ParamField {
  const input = inputKindOf(prop);
  if (input) return createInputField(name, input, prop, required, notify);
  const kind = fieldKind(prop);
  // The last value sent, which an unset optional parameter gets back when switched on again.
  const memory = { last: initialValue(prop) };
  const onChange: FieldChange = (n, value, mode) => {
    if (value !== undefined) memory.last = value;
    notify(n, value, mode);
  };
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
    h('span', { class: 'field-type' }, typeText(prop), range ? ` · ${range}` : ''),
  );
  const wrapper = h('div', { class: `field field-${kind}`, 'data-param': name });
  const hint = prop.description ? h('p', { class: 'field-hint' }, prop.description) : null;
  let setValue: (value: unknown) => void;
  let control: HTMLElement;

  if (kind === 'slider' || kind === 'number') {
    const scale = sliderScale(prop);
    const step = kind === 'slider' && !scale.log ? scale.step : prop.type === 'integer' ? 1 : 'any';
    const number = h('input', { id, type: 'number', class: 'num', step, inputmode: 'decimal', 'aria-label': name });
    // Wide enough for the longest value it may hold (the spinner and padding take about 4em).
    const fit = (value?: unknown): void => void (number.style.width = `calc(${numberFieldChars(prop, value)}ch + 3.2em)`);
    fit();
    const read = (mode: ChangeMode): void => {
      const text = number.value.trim();
      const value = text === '' ? NaN : Number(text);
      if (Number.isNaN(value)) {
        showCheck(undefined, 'must be a number');
        return;
      }
      if (slider) slider.value = String(scale.toSlider(value));
      fit(value);
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
        min: scale.min,
        max: scale.max,
        step: scale.step,
        'aria-label': `${name} slider`,
        'data-scale': scale.log ? 'log' : 'linear',
      });
      const s = slider;
      const fromSlider = (mode: ChangeMode): void => {
        const value = scale.fromSlider(Number(s.value));
        number.value = formatNumber(value);
        fit(value);
        showCheck(value);
        onChange(name, value, mode);
      };
      s.addEventListener('input', () => fromSlider('drag'));
      s.addEventListener('change', () => fromSlider('commit'));
    }
    control = h('div', { class: 'field-row' }, slider, number);
    setValue = (value) => {
      number.value = formatNumber(value);
      fit(value);
      if (slider && typeof value === 'number') slider.value = String(scale.toSlider(value));
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
  } else if (kind === 'color' || kind === 'vector' || kind === 'list') {
    const emit = (value: unknown, mode: ChangeMode): void => {
      showCheck(value);
      onChange(name, value, mode);
    };
    const rich: ParamControl =
      kind === 'color'
        ? createColorControl(name, emit)
        : kind === 'vector'
          ? createVectorControl(name, prop, emit)
          : createListControl(name, prop, emit);
    control = rich.element;
    setValue = (value) => {
      rich.setValue(value);
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
  if (isUnsettable(prop, required)) setValue = withUnset(name, memory, label, control, error, setValue, notify);
  wrapper.append(label, control, error);
  if (hint) wrapper.append(hint);
  return { name, element: wrapper, setValue };
}

/** The type shown beside the name. */
function typeText(prop: ParameterProperty): string {
  if (prop['x-vitrine-input']) return `${prop['x-vitrine-input'].replace('_', ' ')} input`;
  if (prop.enum) return 'choice';
  if (prop.type === 'string' && prop.format === 'color') return 'colour';
  if (prop.type === 'array') {
    const item = prop.prefixItems?.[0] ?? (prop.items || undefined);
    return prop.prefixItems ? `vector of ${prop.prefixItems.length}` : `list of ${item?.type ?? 'values'}`;
  }
  return prop.type ?? 'any';
}
