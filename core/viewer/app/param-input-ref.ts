/**
 * @module param-input-ref
 * A plain control for an input parameter (a mesh, volume, point cloud or image from another
 * specimen or an upload): the specimen id as text, or the reference as JSON
 * (`{"specimen": "id", "params": {...}}`, `{"upload": "id"}`). A picker of compatible
 * specimens and a file drop can take its place.
 */
import { h } from './dom.ts';
import { disableAll, type ControlChange, type ParamControl } from './param-control.ts';

function show(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  const ref = value as Record<string, unknown>;
  if (Object.keys(ref).length === 1 && typeof ref['specimen'] === 'string') return ref['specimen'];
  return JSON.stringify(value);
}

function read(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return trimmed === '' ? undefined : { specimen: trimmed };
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

/** The input reference control of parameter `name` taking results of `kind`. */
export function createInputRefControl(name: string, kind: string, onChange: ControlChange): ParamControl {
  const text = h('input', { type: 'text', class: 'text', spellcheck: false, autocomplete: 'off', placeholder: `${kind.replace('_', ' ')} specimen id`, 'aria-label': name });
  const emit = (mode: 'drag' | 'commit'): void => {
    const value = read(text.value);
    text.classList.toggle('item-invalid', value === undefined);
    if (value !== undefined) onChange(value, mode);
  };
  text.addEventListener('change', () => emit('commit'));
  const element = h('div', { class: 'input-ref-control' }, text);
  return {
    element,
    setValue(value) {
      text.value = show(value);
    },
    setDisabled: (disabled) => disableAll(element, disabled),
  };
}
