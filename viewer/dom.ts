/**
 * @module dom
 * A tiny element builder, so views read as a tree instead of a page of `createElement` calls.
 */

type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;
type Child = Node | string | number | null | undefined | false;

/**
 * Creates an element. Attributes starting with `on` become listeners; `true` sets a boolean
 * attribute, `false`/`null`/`undefined` leaves it out.
 * @example h('button', { class: 'primary', onclick: () => go() }, 'Go')
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/** A row of a tool panel: its name (`slice-axis`), then its controls; `title` says what it sets. */
export function toolRow(tag: 'label' | 'div', name: string, title: string | null, ...controls: Child[]): HTMLElement {
  return h(tag, { class: 'slice-row', title }, h('span', { class: 'slice-axis' }, name), ...controls);
}

/** A small quiet button (`button ghost small`): `title` says what it does, `testid` names it for tests. */
export function smallButton(label: string, title: string, testid: string, onclick?: () => void): HTMLButtonElement {
  return h('button', { class: 'button ghost small', type: 'button', title, 'data-testid': testid, onclick }, label);
}

/** A small button showing a symbol: `title` names it (for the pointer and for a screen reader), `control` for tests. */
export function iconButton(label: string, title: string, control: string, onclick: () => void): HTMLButtonElement {
  const attrs = { type: 'button', class: 'button ghost small icon', title, 'aria-label': title, 'data-control': control, onclick };
  return h('button', attrs, label);
}

/** Appends children, skipping empty ones. */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** `1234567` → `1,234,567`. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `1536` → `1.5 KB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
