/**
 * @module check-layer
 * What a request may say about layers, checked field by field with each error naming its path:
 * a new layer (`POST .../layers`, each of `PUT .../scene`'s `layers`), a change to one (`PATCH`:
 * the fields given are merged, `null` takes a display field back to its default), and the body
 * of `PUT .../scene`, and the scene's version an `If-Match` names. A layer's `result`, `stale`
 * and `by` are the host's to set: sent back, they are ignored.
 */
import type { LayerDisplay, LayerKind, LayerSource, NewLayer } from '../wire/scene-types.ts';
import { isRecord } from '../wire/json-object.ts';
import { bad, DISPLAY_CHECKS, DISPLAY_FIELDS, onlyMembers } from './check-display.ts';
import { checkSource } from './check-source.ts';
import { LAYER_ID_PATTERN, MAX_LAYERS } from './scene-limits.ts';

export const LAYER_KINDS = ['image', 'labels', 'mesh', 'points'] as const satisfies readonly LayerKind[];

/** A layer as a request gives it: the id and kind may be left to the host. */
export type LayerInput = NewLayer;

/** A change to a layer: a new source or kind, display fields (null: back to the default), or becoming the active layer. */
export interface LayerChange {
  source?: LayerSource;
  kind?: LayerKind;
  display: { [K in keyof LayerDisplay]?: LayerDisplay[K] | null };
  active?: true;
  /** Who makes the change, as the host knows them (never read from the body). */
  by?: string;
}

/** What `PUT .../scene` asks for: layers bottom first and the active one, or a snapshot to restore. */
export type SceneInput = { layers: LayerInput[]; active?: string | null } | { snapshot: string };

/** Fields the host sets: one sent back (a scene read and put again) is ignored. */
const HOST_FIELDS = ['result', 'stale', 'failed', 'by'];
const LAYER_FIELDS = ['id', 'source', 'kind', ...HOST_FIELDS, ...DISPLAY_FIELDS];
const CHANGE_FIELDS = ['id', 'source', 'kind', ...HOST_FIELDS, 'active', ...DISPLAY_FIELDS];

export function checkLayerId(value: unknown, path: string): string {
  if (typeof value !== 'string' || !LAYER_ID_PATTERN.test(value)) throw bad(path, "must be 1 to 64 letters, digits, _ . or -, and not '.' or '..'");
  return value;
}

function kind(value: unknown, path: string): LayerKind {
  if (typeof value !== 'string' || !(LAYER_KINDS as readonly string[]).includes(value)) throw bad(path, `must be one of ${LAYER_KINDS.join(', ')}`);
  return value as LayerKind;
}

function fields(value: unknown, path: string, known: string[]): Record<string, unknown> {
  if (!isRecord(value)) throw bad(path, 'must be an object');
  const extra = Object.keys(value).find((key) => !known.includes(key));
  if (extra !== undefined) throw bad(`${path}.${extra}`, `is not a layer field (fields: ${known.filter((f) => !HOST_FIELDS.includes(f)).join(', ')})`);
  return value;
}

/** A new layer at `path` (`layers[2]`, or `layer` for POST). */
export function checkLayer(value: unknown, path: string): LayerInput {
  const given = fields(value, path, LAYER_FIELDS);
  if (given.source === undefined) throw bad(`${path}.source`, 'is required: {"specimen": id} or {"function": name}, with "params"');
  const layer: LayerInput = { source: checkSource(given.source, `${path}.source`) };
  if (given.id !== undefined) layer.id = checkLayerId(given.id, `${path}.id`);
  if (given.kind !== undefined) layer.kind = kind(given.kind, `${path}.kind`);
  const display = layer as unknown as Record<string, unknown>;
  for (const field of DISPLAY_FIELDS) {
    const raw = given[field];
    if (raw === undefined || raw === null) continue;
    display[field] = DISPLAY_CHECKS[field](raw, `${path}.${field}`);
  }
  return layer;
}

/** A change to layer `id`; `path` names the body in errors. */
export function checkLayerChange(value: unknown, id: string, path = 'layer'): LayerChange {
  const given = fields(value, path, CHANGE_FIELDS);
  if (given.id !== undefined && given.id !== id) throw bad(`${path}.id`, 'cannot change: add a layer with the new id and remove this one');
  const change: LayerChange = { display: {} };
  if (given.source !== undefined) change.source = checkSource(given.source, `${path}.source`);
  if (given.kind !== undefined) change.kind = kind(given.kind, `${path}.kind`);
  if (given.active !== undefined) {
    if (given.active !== true) throw bad(`${path}.active`, 'can only be true (make another layer active to change which one is)');
    change.active = true;
  }
  const display = change.display as Record<string, unknown>;
  for (const field of DISPLAY_FIELDS) {
    if (!(field in given)) continue;
    const raw = given[field];
    display[field] = raw === null ? null : DISPLAY_CHECKS[field](raw, `${path}.${field}`);
  }
  return change;
}

/** The body of `PUT .../scene`. */
export function checkSceneInput(value: unknown): SceneInput {
  if (!isRecord(value)) throw bad('body', 'must be {"layers": [...], "active": id} or {"snapshot": id}');
  if (value.snapshot !== undefined) {
    onlyMembers(value, ['snapshot'], 'body');
    if (typeof value.snapshot !== 'string' || !/^[0-9a-f]{64}$/.test(value.snapshot)) throw bad('snapshot', 'must be a snapshot id (64 hexadecimal digits)');
    return { snapshot: value.snapshot };
  }
  onlyMembers(value, ['layers', 'active', 'version'], 'body');
  if (!Array.isArray(value.layers)) throw bad('layers', 'must be a list of layers, bottom first');
  if (value.layers.length > MAX_LAYERS) throw bad('layers', `lists ${value.layers.length} layers, more than the ${MAX_LAYERS} a scene holds`);
  const layers = value.layers.map((layer, i) => checkLayer(layer, `layers[${i}]`));
  if (value.active === undefined) return { layers };
  if (value.active !== null) checkLayerId(value.active, 'active');
  return { layers, active: value.active as string | null };
}

/** `If-Match: "<version>"` (a version number, quoted or not); undefined when absent or `*`. */
export function expectedVersion(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(value);
  if (!match) throw bad('If-Match', `must name the scene's version as "<version>" (a number), got ${JSON.stringify(value.slice(0, 40))}`);
  return Number(match[1]);
}
