/**
 * @module room-view
 * A room's shared view: how its followers look at what it shows. Any of `window` (`[lo, hi]`,
 * the values the colour map spans), `colormap` (one the host lists: colormaps.ts), `opacity` (0..1), `mode` (`slices`,
 * `volume`, `surface`, `points`) and `camera` (`{position, target, up}`, three numbers each).
 * A change names only what it changes: it is merged into the room's view, and `null` removes
 * a setting. Anything else is a 400 naming the setting.
 */
import type { RoomCamera, RoomView } from '../wire/room-types.ts';
import { createHostError } from '../errors.ts';
import { COLORMAP_NAMES, isColormapName } from '../wire/colormaps.ts';
import { isRecord } from '../wire/json-object.ts';

export const VIEW_MODES = ['slices', 'volume', 'surface', 'points'] as const satisfies readonly NonNullable<RoomView['mode']>[];
type ViewMode = (typeof VIEW_MODES)[number];

// The view's shape is the wire's (wire/wire-types.ts): one definition for host and clients.
export type { RoomView };

/** A change to a view: each setting given, or null to remove it. */
export type ViewChange = { [K in keyof RoomView]?: RoomView[K] | null };

/** The view's settings, in the order a view lists them. */
export const VIEW_FIELDS = ['window', 'colormap', 'opacity', 'mode', 'camera'] as const;

const NUMBER3 = { type: 'array', items: { type: 'number' }, minItems: 3, maxItems: 3 };

/** The view's settings as JSON Schema properties (what agents and the API document are shown). */
export const VIEW_PROPERTIES: Record<string, Record<string, unknown>> = {
  window: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2, description: '[lo, hi]: the values the colour map spans (lo < hi)' },
  colormap: { enum: [...COLORMAP_NAMES], description: 'A colour map the host knows (GET /api/colormaps); glasbey is categorical, for labels' },
  opacity: { type: 'number', minimum: 0, maximum: 1, description: 'How opaque the result is drawn: 0 transparent, 1 opaque' },
  mode: { enum: [...VIEW_MODES], description: 'How a volume is drawn (slices, volume) or a mesh or cloud (surface, points)' },
  camera: {
    type: 'object',
    description: "Where every follower's camera is, in the result's physical units: its position, the point it looks at, and its up direction",
    properties: {
      position: { ...NUMBER3, description: 'The camera position [x, y, z]' },
      target: { ...NUMBER3, description: 'The point the camera looks at [x, y, z]' },
      up: { ...NUMBER3, description: 'The up direction [x, y, z]' },
    },
    required: ['position', 'target', 'up'],
    additionalProperties: false,
  },
};
const bad = (field: string, why: string) => createHostError('SPC_ERR_ROOM_VIEW_INVALID', field, why);

function finiteList(value: unknown, length: number): value is number[] {
  return Array.isArray(value) && value.length === length && value.every((v) => typeof v === 'number' && Number.isFinite(v));
}

function checkCamera(value: unknown): RoomCamera {
  if (!isRecord(value)) throw bad('camera', 'must be an object {position, target, up}');
  const extra = Object.keys(value).find((key) => key !== 'position' && key !== 'target' && key !== 'up');
  if (extra !== undefined) throw bad('camera', `has an unknown member '${extra}' (members: position, target, up)`);
  for (const key of ['position', 'target', 'up']) {
    if (!finiteList(value[key], 3)) throw bad('camera', `needs '${key}' as three finite numbers`);
  }
  return { position: value.position, target: value.target, up: value.up } as RoomCamera;
}

function checkField(field: (typeof VIEW_FIELDS)[number], value: unknown): RoomView[keyof RoomView] {
  switch (field) {
    case 'window':
      if (!finiteList(value, 2)) throw bad('window', 'must be [lo, hi], two finite numbers');
      if (!(value[0]! < value[1]!)) throw bad('window', `must have lo < hi, got [${value[0]}, ${value[1]}]`);
      return [value[0]!, value[1]!];
    case 'colormap':
      if (!isColormapName(value)) throw bad('colormap', `must be a colour map the host knows (${COLORMAP_NAMES.join(', ')}), got ${JSON.stringify(value)}`);
      return value;
    case 'opacity':
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
        throw bad('opacity', `must be a number from 0 to 1, got ${JSON.stringify(value)}`);
      return value;
    case 'mode':
      if (typeof value !== 'string' || !(VIEW_MODES as readonly string[]).includes(value))
        throw bad('mode', `must be one of ${VIEW_MODES.join(', ')}, got ${JSON.stringify(value)}`);
      return value as ViewMode;
    case 'camera':
      return checkCamera(value);
  }
}

/** The change a request body asks for. @throws SPC_ERR_ROOM_VIEW_INVALID naming the setting. */
export function checkViewChange(body: unknown): ViewChange {
  if (!isRecord(body)) throw bad('body', `must be a JSON object with any of ${VIEW_FIELDS.join(', ')}`);
  const unknown = Object.keys(body).find((key) => !(VIEW_FIELDS as readonly string[]).includes(key));
  if (unknown !== undefined) throw bad(unknown, `is not a view setting (settings: ${VIEW_FIELDS.join(', ')})`);
  const change: Record<string, unknown> = {};
  for (const field of VIEW_FIELDS) {
    if (!(field in body)) continue;
    change[field] = body[field] === null ? null : checkField(field, body[field]);
  }
  return change as ViewChange;
}

/** `view` with `change` applied (settings in VIEW_FIELDS order). */
export function applyViewChange(view: RoomView, change: ViewChange): RoomView {
  const merged: Record<string, unknown> = {};
  for (const field of VIEW_FIELDS) {
    const value = field in change ? change[field] : view[field];
    if (value !== undefined && value !== null) merged[field] = value;
  }
  return merged as RoomView;
}

/** A stored view read back (another host's, or an older one): what does not check is left out. */
export function readStoredView(value: unknown): RoomView {
  if (typeof value !== 'object' || value === null) return {};
  const view: Record<string, unknown> = {};
  for (const field of VIEW_FIELDS) {
    const raw = (value as Record<string, unknown>)[field];
    if (raw === undefined || raw === null) continue;
    try {
      view[field] = checkField(field, raw);
    } catch {
      // Left out: a view that does not check is not shown.
    }
  }
  return view as RoomView;
}
