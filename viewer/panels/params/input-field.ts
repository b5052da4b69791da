/**
 * @module input-field
 * The control of an input parameter (a schema property with `x-vitrine-input`): a picker
 * listing the catalog's specimens of the input's type, and a drop zone (or file chooser) that
 * uploads a file and selects it. The value is `{"specimen": id}` or `{"upload": id}`.
 */
import type { CatalogEntry, ParameterProperty } from '../../../core/wire/wire-types.ts';
import type { InputKind } from '../../../core/wire/input-schema.ts';
import { h } from '../../dom.ts';
import { fieldLabel, type FieldChange, type ParamField } from './param-control.ts';

const ACCEPT: Record<InputKind, string> = {
  mesh: '.stl,.obj,.glb,.ply',
  volume: '.npy',
  point_cloud: '.ply',
  image: '.png',
};

/** What the picker reads of a catalog entry. */
type CatalogItem = Pick<CatalogEntry, 'id' | 'display_name' | 'type'>;

/** What `POST /api/uploads` answers for an accepted file. */
interface UploadAnswer {
  upload_id: string;
  type: string;
}

/** Sends `file` as the body of `POST /api/uploads`; rejects with an Error whose message is the host's detail. */
async function uploadFile(file: File): Promise<UploadAnswer> {
  const res = await fetch(`/api/uploads?filename=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: file,
  });
  const body = (await res.json().catch(() => ({}))) as Partial<UploadAnswer> & { detail?: string };
  if (!res.ok || typeof body.upload_id !== 'string') throw new Error(body.detail ?? `the upload failed (${res.status})`);
  return body as UploadAnswer;
}

let catalog: Promise<CatalogItem[]> | null = null;

/** The catalog, fetched once per page (the picker only needs ids, names and types). */
function specimens(): Promise<CatalogItem[]> {
  catalog ??= fetch('/api/specimens/').then(
    (res) => (res.ok ? (res.json() as Promise<CatalogItem[]>) : []),
    () => [],
  );
  return catalog;
}

function optionValue(value: unknown): string {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (typeof v.upload === 'string') return `upload:${v.upload}`;
    if (typeof v.specimen === 'string') return `specimen:${v.specimen}`;
  }
  return '';
}

/** Builds the picker and drop zone for input parameter `name` of `kind`. */
export function createInputField(
  name: string,
  kind: InputKind,
  prop: ParameterProperty,
  required: boolean,
  onChange: FieldChange,
): ParamField {
  const id = `param-${name}`;
  const select = h('select', { id, class: 'select', 'data-testid': `input-picker-${name}` }, h('option', { value: '' }, '— choose —'));
  const status = h('div', { class: 'field-error', role: 'status', 'aria-live': 'polite' });
  const chooser = h('input', { type: 'file', accept: ACCEPT[kind], hidden: true, 'data-testid': `input-file-${name}` });
  const drop = h(
    'div',
    { class: 'drop-zone', tabindex: 0, role: 'button', 'data-testid': `input-drop-${name}` },
    `Drop a ${ACCEPT[kind].replaceAll(',', ' ')} file here, or click to choose`,
  );
  let pending: unknown = prop.default;

  const addOption = (value: string, label: string): void => {
    if (![...select.options].some((o) => o.value === value)) select.appendChild(h('option', { value }, label));
  };
  const show = (value: unknown): void => {
    pending = value;
    const wanted = optionValue(value);
    if (wanted.startsWith('upload:')) addOption(wanted, `uploaded file ${wanted.slice(7, 15)}…`);
    select.value = [...select.options].some((o) => o.value === wanted) ? wanted : '';
  };
  void specimens().then((items) => {
    for (const item of items.filter((i) => i.type === kind)) addOption(`specimen:${item.id}`, `${item.display_name} (${item.id})`);
    show(pending);
  });
  select.addEventListener('change', () => {
    const [source, ...rest] = select.value.split(':');
    const ref = rest.join(':');
    const value = source === 'upload' ? { upload: ref } : source === 'specimen' ? { specimen: ref } : null;
    pending = value;
    onChange(name, value, 'commit');
  });

  const send = async (file: File): Promise<void> => {
    status.textContent = `uploading ${file.name}…`;
    drop.classList.add('busy');
    try {
      const answer = await uploadFile(file);
      if (answer.type !== kind) throw new Error(`${file.name} is a ${answer.type}, this input takes a ${kind}`);
      addOption(`upload:${answer.upload_id}`, `${file.name} (uploaded)`);
      select.value = `upload:${answer.upload_id}`;
      status.textContent = '';
      pending = { upload: answer.upload_id };
      onChange(name, pending, 'commit');
    } catch (error) {
      status.textContent = `${name}: ${(error as Error).message}`;
    } finally {
      drop.classList.remove('busy');
    }
  };
  chooser.addEventListener('change', () => {
    const file = chooser.files?.[0];
    if (file) void send(file);
    chooser.value = '';
  });
  drop.addEventListener('click', () => chooser.click());
  drop.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') chooser.click();
  });
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    const file = event.dataTransfer?.files[0];
    if (file) void send(file);
  });

  const label = fieldLabel(id, name, required, `${kind.replace('_', ' ')} input`);
  const element = h('div', { class: 'field field-input', 'data-param': name }, label, select, drop, chooser, status);
  if (prop.description) element.append(h('p', { class: 'field-hint' }, prop.description));
  return { name, element, setValue: show };
}
