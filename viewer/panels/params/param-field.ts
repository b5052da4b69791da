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
import { checkValue, fieldKind, formatNumber, initialValue, isUnsettable, itemSchema, type FieldKind } from './param-check.ts';
import { createColorControl } from './param-color.ts';
import { fieldLabel, type ChangeMode, type FieldChange, type ParamControl, type ParamField } from './param-control.ts';

export type { ChangeMode, FieldChange, ParamField } from './param-control.ts';
import { createListControl } from './param-list.ts';
import { withUnset } from './param-unset.ts';
import { createVectorControl } from './param-vector.ts';
import './param-controls.css';
import { numberFieldChars, sliderScale } from './slider-scale.ts';
import { inputKindOf } from '../../../core/wire/input-schema.ts';
import { createInputField } from './input-field.ts';

/** What a kind's control is built from: the field's names, its schema, and what it tells. */
interface FieldContext {
  id: string;
  name: string;
  prop: ParameterProperty;
  kind: FieldKind;
  /** Shows the problem with `value` under the control (or `unreadable`, when the text is no value). */
  showCheck(value: unknown, unreadable?: string): void;
  onChange: FieldChange;
}

/** A kind's control, and how a value is put into it (the field then checks the value). */
interface BuiltControl {
  control: HTMLElement;
  setValue(value: unknown): void;
}

/** A number field, beside a slider for a bounded number (linear, or logarithmic over wide ranges). */
function numberControl({ id, name, prop, kind, showCheck, onChange }: FieldContext): BuiltControl {
  const scale = sliderScale(prop);
  const step = kind === 'slider' && !scale.log ? scale.step : prop.type === 'integer' ? 1 : 'any';
  const number = h('input', { id, type: 'number', class: 'num', step, inputmode: 'decimal', 'aria-label': name });
  // Wide enough for the longest value it may hold (the spinner and padding take about 4em).
  const fit = (value?: unknown): void => void (number.style.width = `calc(${numberFieldChars(prop, value)}ch + 3.2em)`);
  fit();
  const slider =
    kind === 'slider'
      ? h('input', {
          type: 'range',
          class: 'slider',
          min: scale.min,
          max: scale.max,
          step: scale.step,
          'aria-label': `${name} slider`,
          'data-scale': scale.log ? 'log' : 'linear',
        })
      : null;
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
  if (slider) {
    const fromSlider = (mode: ChangeMode): void => {
      const value = scale.fromSlider(Number(slider.value));
      number.value = formatNumber(value);
      fit(value);
      showCheck(value);
      onChange(name, value, mode);
    };
    slider.addEventListener('input', () => fromSlider('drag'));
    slider.addEventListener('change', () => fromSlider('commit'));
  }
  const setValue = (value: unknown): void => {
    number.value = formatNumber(value);
    fit(value);
    if (slider && typeof value === 'number') slider.value = String(scale.toSlider(value));
  };
  return { control: h('div', { class: 'field-row' }, slider, number), setValue };
}

/** A dropdown of the enum's values (numbers too, kept as JSON). */
function enumControl({ id, name, prop, showCheck, onChange }: FieldContext): BuiltControl {
  const select = h('select', { id, class: 'select' });
  for (const option of prop.enum ?? []) select.appendChild(h('option', { value: JSON.stringify(option) }, String(option)));
  select.addEventListener('change', () => {
    const value: unknown = JSON.parse(select.value);
    showCheck(value);
    onChange(name, value, 'commit');
  });
  return { control: select, setValue: (value) => void (select.value = JSON.stringify(value)) };
}

/** A switch. */
function booleanControl({ id, name, onChange }: FieldContext): BuiltControl {
  const box = h('input', { id, type: 'checkbox', class: 'switch', role: 'switch' });
  box.addEventListener('change', () => onChange(name, box.checked, 'commit'));
  const setValue = (value: unknown): void => void (box.checked = value === true);
  return { control: h('div', { class: 'field-row' }, box, h('label', { for: id, class: 'switch-label' }, 'enabled')), setValue };
}

/** A colour picker, a row of fields for a vector, or a list editor. */
function richControl({ name, prop, kind, showCheck, onChange }: FieldContext): BuiltControl {
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
  return { control: rich.element, setValue: (value) => rich.setValue(value) };
}

/** A text field. */
function textControl({ id, name, onChange }: FieldContext): BuiltControl {
  const text = h('input', { id, type: 'text', class: 'text', spellcheck: false, autocomplete: 'off' });
  text.addEventListener('input', () => onChange(name, text.value, 'drag'));
  text.addEventListener('change', () => onChange(name, text.value, 'commit'));
  const setValue = (value: unknown): void => void (text.value = typeof value === 'string' ? value : JSON.stringify(value ?? ''));
  return { control: text, setValue };
}

/** Each kind's control: a table the compiler checks, so a new kind cannot be left without one. */
const CONTROLS: Record<FieldKind, (context: FieldContext) => BuiltControl> = {
  slider: numberControl,
  number: numberControl,
  enum: enumControl,
  boolean: booleanControl,
  color: richControl,
  vector: richControl,
  list: richControl,
  string: textControl,
};

/** The range a number may take, as the label shows it (`≥ 0, ≤ 10`). */
function rangeText(prop: ParameterProperty): string {
  if (prop.type !== 'integer' && prop.type !== 'number') return '';
  const low = typeof prop.minimum === 'number' ? `≥ ${prop.minimum}` : '';
  const high = typeof prop.maximum === 'number' ? `≤ ${prop.maximum}` : '';
  return [low, high].filter(Boolean).join(', ');
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
  const wrapper = h('div', { class: `field field-${kind}`, 'data-param': name });
  const showCheck = (value: unknown, unreadable?: string): void => {
    const problem = unreadable ?? checkValue(prop, value);
    error.textContent = problem ? `${name} ${problem}` : '';
    wrapper.classList.toggle('invalid', problem !== null);
  };
  const range = rangeText(prop);
  const label = fieldLabel(id, name, required, typeText(prop), range ? ` · ${range}` : '');
  const built = CONTROLS[kind]({ id, name, prop, kind, showCheck, onChange });
  const setControl = (value: unknown): void => {
    built.setValue(value);
    showCheck(value);
  };
  const setValue = isUnsettable(prop, required) ? withUnset(name, memory, label, built.control, error, setControl, notify) : setControl;
  wrapper.append(label, built.control, error);
  if (prop.description) wrapper.append(h('p', { class: 'field-hint' }, prop.description));
  return { name, element: wrapper, setValue };
}

/** The type shown beside the name. */
function typeText(prop: ParameterProperty): string {
  if (prop['x-vitrine-input']) return `${prop['x-vitrine-input'].replace('_', ' ')} input`;
  if (prop.enum) return 'choice';
  if (prop.type === 'string' && prop.format === 'color') return 'colour';
  if (prop.type === 'array' && prop.prefixItems) return `vector of ${prop.prefixItems.length}`;
  if (prop.type === 'array') return `list of ${itemSchema(prop, 0).type ?? 'values'}`;
  return prop.type ?? 'any';
}
