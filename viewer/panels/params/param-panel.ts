/**
 * @module param-panel
 * A dynamic specimen's schema as a form. It keeps the current values (defaults, then the URL's
 * values, then edits; an optional parameter with no default stays out until it is set),
 * reports each change with how it should be sent, and shows the host's 400 detail for the
 * panel as a whole.
 */
import type { ParameterSchema } from '../../../core/wire/wire-types.ts';
import { h, replaceChildren } from '../../dom.ts';
import { createParamField } from './param-field.ts';
import type { ChangeMode, ParamField } from './param-field.ts';
import { initialValue, isUnsettable } from './param-check.ts';

export interface ParamPanelOptions {
  schema: ParameterSchema;
  /** Values to start from (e.g. from the URL); unknown names are kept and sent, so the host can refuse them. */
  initial: Record<string, unknown> | null;
  onChange: (values: Record<string, unknown>, mode: ChangeMode) => void;
}

/** The parameter form of one dynamic specimen. */
export class ParamPanel {
  readonly element: HTMLElement;
  readonly #schema: ParameterSchema;
  readonly #fields: ParamField[] = [];
  readonly #hostError = h('div', { class: 'panel-error', role: 'alert', hidden: true, 'data-testid': 'host-error' });
  readonly #unknownList = h('ul', { class: 'unknown-list' });
  readonly #unknown = h(
    'div',
    { class: 'unknown-params', hidden: true, 'data-testid': 'unknown-params' },
    h('p', { class: 'unknown-head' }, 'Not parameters of this function (from the link):'),
    this.#unknownList,
  );
  readonly #onChange: ParamPanelOptions['onChange'];
  #values: Record<string, unknown> = {};

  constructor(options: ParamPanelOptions) {
    this.#schema = options.schema;
    this.#onChange = options.onChange;
    const required = new Set(options.schema.required ?? []);
    const list = h('div', { class: 'fields' });
    for (const [name, prop] of Object.entries(options.schema.properties ?? {})) {
      const field = createParamField(name, prop, required.has(name), (n, value, mode) => {
        if (value === undefined) delete this.#values[n];
        else this.#values[n] = value;
        options.onChange(this.values(), mode);
      });
      this.#fields.push(field);
      list.appendChild(field.element);
    }
    if (this.#fields.length === 0) list.appendChild(h('p', { class: 'muted' }, 'This function takes no parameters.'));
    this.element = h('div', { class: 'param-panel' }, this.#hostError, this.#unknown, list);
    this.#assign(options.initial);
  }

  /** The values to send. */
  values(): Record<string, unknown> {
    return { ...this.#values };
  }

  /** Back to the schema defaults (drops values the schema does not know). */
  reset(): void {
    this.#assign(null);
  }

  /** Shows `values` (e.g. a peer's, from the room) in place of the current ones, without raising a change. */
  set(values: Record<string, unknown>): void {
    this.#assign(values);
  }

  /** Shows (or clears, with null) the host's explanation of a refused request. */
  setHostError(detail: string | null): void {
    this.#hostError.hidden = detail === null;
    this.#hostError.textContent = detail ? `The host refused these parameters: ${detail}` : '';
  }

  #assign(initial: Record<string, unknown> | null): void {
    const values: Record<string, unknown> = {};
    const required = new Set(this.#schema.required ?? []);
    for (const [name, prop] of Object.entries(this.#schema.properties ?? {})) {
      // An optional parameter with no default starts unset: it is not sent.
      if (!isUnsettable(prop, required.has(name))) values[name] = initialValue(prop);
    }
    Object.assign(values, initial ?? {});
    this.#values = values;
    for (const field of this.#fields) field.setValue(values[field.name]);
    this.#showUnknown();
  }

  /**
   * Shows the values the schema does not know, e.g. from a shared link made for an older version
   * of the function. They are still sent (the host says why it refuses them), but they are shown
   * above the fields, each with its value and a Remove button, so the user sees what is wrong and
   * can drop it (which sends the values without it).
   */
  #showUnknown(): void {
    const known = new Set(Object.keys(this.#schema.properties ?? {}));
    const unknown = Object.keys(this.#values).filter((name) => !known.has(name));
    this.#unknown.hidden = unknown.length === 0;
    replaceChildren(
      this.#unknownList,
      ...unknown.map((name) =>
        h(
          'li',
          { class: 'unknown-item', 'data-param': name },
          h('code', { class: 'unknown-name' }, name),
          h('code', { class: 'unknown-value' }, JSON.stringify(this.#values[name]) ?? 'undefined'),
          h(
            'button',
            { class: 'button ghost small', type: 'button', 'aria-label': `Remove ${name}`, onclick: () => this.#removeUnknown(name) },
            'Remove',
          ),
        ),
      ),
    );
  }

  #removeUnknown(name: string): void {
    delete this.#values[name];
    this.#showUnknown();
    this.#onChange(this.values(), 'commit');
  }
}
