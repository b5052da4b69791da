/**
 * @module param-color
 * A colour control: the browser's colour picker beside the `#rrggbb` text, kept in step. The
 * picker commits when it closes and drags while it moves; typed text is sent once it reads as
 * a colour.
 */
import { h } from '../../dom.ts';
import { COLOR } from './param-check.ts';
import { disableAll, type ControlChange, type ParamControl } from './param-control.ts';

/** A colour picker and its hex text; `label` is the accessible name. */
export function createColorControl(label: string, onChange: ControlChange): ParamControl {
  const picker = h('input', { type: 'color', class: 'color-swatch', 'aria-label': label });
  const text = h('input', {
    type: 'text',
    class: 'text color-hex',
    spellcheck: false,
    autocomplete: 'off',
    maxlength: 7,
    'aria-label': `${label} hex`,
  });
  const fromPicker = (mode: 'drag' | 'commit'): void => {
    text.value = picker.value;
    text.classList.remove('item-invalid');
    onChange(picker.value, mode);
  };
  picker.addEventListener('input', () => fromPicker('drag'));
  picker.addEventListener('change', () => fromPicker('commit'));
  const fromText = (mode: 'drag' | 'commit'): void => {
    const value = text.value.trim();
    const ok = COLOR.test(value);
    text.classList.toggle('item-invalid', !ok);
    if (!ok) return;
    picker.value = value.toLowerCase();
    onChange(value, mode);
  };
  text.addEventListener('input', () => fromText('drag'));
  text.addEventListener('change', () => fromText('commit'));
  const element = h('div', { class: 'color-control' }, picker, text);
  return {
    element,
    setValue(value) {
      const hex = typeof value === 'string' ? value : '';
      text.value = hex;
      text.classList.toggle('item-invalid', !COLOR.test(hex));
      if (COLOR.test(hex)) picker.value = hex.toLowerCase();
    },
    setDisabled: (disabled) => disableAll(element, disabled),
  };
}
