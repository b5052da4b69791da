/**
 * @module param-control
 * What every parameter control gives the field around it: its element, a way to show a value
 * without raising a change, and the changes it raises with how they should be sent.
 */
import { h } from '../../dom.ts';

/** How a change should be sent: `drag` is debounced, `commit` goes at once. */
export type ChangeMode = 'drag' | 'commit';

/** Called with a control's new value. */
export type ControlChange = (value: unknown, mode: ChangeMode) => void;

/** A rendered control. */
export interface ParamControl {
  readonly element: HTMLElement;
  /** Shows `value` without raising a change. */
  setValue(value: unknown): void;
  /** Enables or disables every input of the control (an unset optional parameter). */
  setDisabled(disabled: boolean): void;
}

/** Sets `disabled` on every input, select and button inside `root`. */
export function disableAll(root: HTMLElement, disabled: boolean): void {
  for (const el of root.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLButtonElement>('input, select, button'))
    el.disabled = disabled;
}

/** A field's label: the parameter's name, a star when it is required, and what it takes. */
export function fieldLabel(id: string, name: string, required: boolean, ...takes: string[]): HTMLLabelElement {
  return h(
    'label',
    { class: 'field-label', for: id },
    h('span', { class: 'field-name' }, name),
    required ? h('span', { class: 'field-required', title: 'required' }, '*') : null,
    h('span', { class: 'field-type' }, ...takes),
  );
}

/** A parameter's field in the panel, whatever its control. */
export interface ParamField {
  readonly name: string;
  readonly element: HTMLElement;
  /** Shows `value` without raising a change. */
  setValue(value: unknown): void;
}

/** Called with the new value, or `undefined` when an optional parameter is set back to unset. */
export type FieldChange = (name: string, value: unknown, mode: ChangeMode) => void;
