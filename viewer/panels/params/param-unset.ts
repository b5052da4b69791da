/**
 * @module param-unset
 * The "set" switch of an optional parameter with no default: while off, the field's control is
 * disabled and the parameter is not sent (the function receives `undefined`); switched on, the
 * last value the field sent (or a neutral one) is sent again.
 */
import { h } from '../../dom.ts';
import { disableAll, type ChangeMode } from './param-control.ts';

/** Adds the "set" switch to a field; returns the field's setValue, which shows `undefined` as unset. */
export function withUnset(
  name: string,
  memory: { last: unknown },
  label: HTMLElement,
  control: HTMLElement,
  error: HTMLElement,
  setControl: (value: unknown) => void,
  onChange: (name: string, value: unknown, mode: ChangeMode) => void,
): (value: unknown) => void {
  const toggle = h('input', {
    type: 'checkbox',
    class: 'field-set',
    role: 'switch',
    'aria-label': `set ${name}`,
    title: 'Send this parameter',
  });
  const show = (set: boolean): void => {
    toggle.checked = set;
    disableAll(control, !set);
    control.classList.toggle('unset', !set);
  };
  toggle.addEventListener('change', () => {
    show(toggle.checked);
    if (toggle.checked) {
      setControl(memory.last);
      onChange(name, memory.last, 'commit');
    } else {
      error.textContent = '';
      onChange(name, undefined, 'commit');
    }
  });
  label.insertBefore(toggle, label.firstChild);
  label.append(h('span', { class: 'field-unset-note' }, 'unset'));
  return (value) => {
    const set = value !== undefined;
    if (set) memory.last = value;
    show(set);
    if (set) setControl(value);
    else error.textContent = '';
  };
}
