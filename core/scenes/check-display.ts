/**
 * @module check-display
 * A layer's display fields, each checked on its own and named by its path in any error
 * (`layers[2].opacity must be between 0 and 1`). The table is typed by LayerDisplay's keys, so
 * a display field added to the wire types without a check does not compile.
 */
import type { LayerBlending, LayerChannel, LayerDisplay, LayerLabels } from '../wire/scene-types.ts';
import { createHostError, type HostError } from '../errors.ts';
import { COLORMAP_NAMES, isColormapName } from '../wire/colormaps.ts';
import { isRecord } from '../wire/json-object.ts';
import {
  MAX_CHANNELS,
  MAX_CLIP_PLANES,
  MAX_LABEL_COLORS,
  MAX_LABEL_ID,
  MAX_NAME_LENGTH,
  MAX_PLAYING_RATE,
  MAX_SELECTED_LABELS,
  MAX_TIME_STEP,
} from './scene-limits.ts';

export const BLENDINGS = ['translucent', 'additive', 'opaque', 'maximum', 'minimum'] as const satisfies readonly LayerBlending[];
export const DISPLAY_MODES = ['slices', 'volume', 'surface', 'points'] as const satisfies readonly NonNullable<LayerDisplay['mode']>[];

export const bad = (path: string, why: string): HostError => createHostError('SPC_ERR_SCENE_INVALID', path, why);

const COLOR = /^#[0-9a-fA-F]{6}$/;
const show = (value: unknown): string => JSON.stringify(value)?.slice(0, 60) ?? String(value);

/** Fails on the first member of `value` not in `known`. */
export function onlyMembers(value: Record<string, unknown>, known: readonly string[], path: string): void {
  const extra = Object.keys(value).find((key) => !known.includes(key));
  if (extra !== undefined) throw bad(`${path}.${extra}`, `is not a member here (members: ${known.join(', ')})`);
}

function finite(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw bad(path, `must be a finite number, got ${show(value)}`);
  return value;
}

function finiteList(value: unknown, length: number, path: string, what: string): number[] {
  if (!Array.isArray(value) || value.length !== length) throw bad(path, `must be ${what}`);
  return value.map((v, i) => finite(v, `${path}[${i}]`));
}

function boolean(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') throw bad(path, `must be true or false, got ${show(value)}`);
  return value;
}

function oneOf<T extends string>(value: unknown, options: readonly T[], path: string): T {
  if (typeof value !== 'string' || !(options as readonly string[]).includes(value)) throw bad(path, `must be one of ${options.join(', ')}, got ${show(value)}`);
  return value as T;
}

function color(value: unknown, path: string): string {
  if (typeof value !== 'string' || !COLOR.test(value)) throw bad(path, `must be a colour written #rrggbb, got ${show(value)}`);
  return value.toLowerCase();
}

export function window(value: unknown, path: string): [number, number] {
  const [lo, hi] = finiteList(value, 2, path, '[lo, hi], two finite numbers') as [number, number];
  if (!(lo < hi)) throw bad(path, `must have lo < hi, got [${lo}, ${hi}]`);
  return [lo, hi];
}

function labelId(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_LABEL_ID)
    throw bad(path, `must be a label id (an integer from 0 to ${MAX_LABEL_ID}), got ${show(value)}`);
  return value;
}

function labels(value: unknown, path: string): LayerLabels {
  if (!isRecord(value)) throw bad(path, 'must be an object {colors, selected, show}');
  onlyMembers(value, ['colors', 'selected', 'show'], path);
  const out: LayerLabels = {};
  if (value.colors !== undefined) {
    if (!isRecord(value.colors)) throw bad(`${path}.colors`, 'must be an object {"<label id>": "#rrggbb"}');
    const entries = Object.entries(value.colors);
    if (entries.length > MAX_LABEL_COLORS)
      throw bad(
        `${path}.colors`,
        `holds ${entries.length} colours, more than ${MAX_LABEL_COLORS} (a full colour table belongs in the labels result's label_colors)`,
      );
    out.colors = {};
    for (const [id, c] of entries) {
      if (!/^\d{1,10}$/.test(id)) throw bad(`${path}.colors`, `has key ${show(id)}, which is no label id`);
      labelId(Number(id), `${path}.colors["${id}"]`);
      out.colors[String(Number(id))] = color(c, `${path}.colors["${id}"]`);
    }
  }
  if (value.selected !== undefined) {
    if (!Array.isArray(value.selected)) throw bad(`${path}.selected`, 'must be a list of label ids');
    if (value.selected.length > MAX_SELECTED_LABELS) throw bad(`${path}.selected`, `lists ${value.selected.length} ids, more than ${MAX_SELECTED_LABELS}`);
    out.selected = value.selected.map((id, i) => labelId(id, `${path}.selected[${i}]`));
  }
  if (value.show !== undefined) out.show = oneOf(value.show, ['all', 'selected'] as const, `${path}.show`);
  return out;
}

function channels(value: unknown, path: string): LayerChannel[] {
  if (!Array.isArray(value)) throw bad(path, 'must be a list of {visible, color, window}');
  if (value.length > MAX_CHANNELS) throw bad(path, `lists ${value.length} channels, more than ${MAX_CHANNELS}`);
  return value.map((channel, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(channel)) throw bad(at, 'must be an object {visible, color, window}');
    onlyMembers(channel, ['visible', 'color', 'window'], at);
    const out: LayerChannel = {};
    if (channel.visible !== undefined) out.visible = boolean(channel.visible, `${at}.visible`);
    if (channel.color !== undefined) out.color = color(channel.color, `${at}.color`);
    if (channel.window !== undefined) out.window = window(channel.window, `${at}.window`);
    return out;
  });
}

const AFFINE_FORMS = 'a 4×4 matrix, row-major: 16 finite numbers, or 4 rows of 4';

/**
 * "4×4 row-major" reads as either form, so both are taken: four rows of four numbers, or the 16
 * numbers row after row. The scene keeps the flat form only, so every reader of a layer (the
 * viewer, the Neuroglancer state, a snapshot's id) sees one shape of the same matrix.
 */
function affine(value: unknown, path: string): number[] {
  if (!Array.isArray(value) || !value.some(Array.isArray)) return finiteList(value, 16, path, AFFINE_FORMS);
  if (value.length !== 4) throw bad(path, `must be ${AFFINE_FORMS}`);
  return value.flatMap((row, i) => finiteList(row, 4, `${path}[${i}]`, 'a row of 4 finite numbers'));
}

type Checks = { [K in keyof Required<LayerDisplay>]: (value: unknown, path: string) => LayerDisplay[K] };

/** Each display field's check: the value as stored, or a 400 naming `path`. */
export const DISPLAY_CHECKS: Checks = {
  name: (value, path) => {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME_LENGTH)
      throw bad(path, `must be a text of 1 to ${MAX_NAME_LENGTH} characters`);
    return value;
  },
  visible: boolean,
  opacity: (value, path) => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) throw bad(path, `must be between 0 and 1, got ${show(value)}`);
    return value;
  },
  blending: (value, path) => oneOf(value, BLENDINGS, path),
  colormap: (value, path) => {
    if (!isColormapName(value)) throw bad(path, `must be a colour map the host knows (${COLORMAP_NAMES.join(', ')}), got ${show(value)}`);
    return value;
  },
  window,
  gamma: (value, path) => {
    const gamma = finite(value, path);
    if (gamma <= 0 || gamma > 100) throw bad(path, `must be above 0 (and at most 100), got ${gamma}`);
    return gamma;
  },
  mode: (value, path) => oneOf(value, DISPLAY_MODES, path),
  affine,
  clip_planes: (value, path) => {
    if (!Array.isArray(value)) throw bad(path, 'must be a list of planes [a, b, c, d]');
    if (value.length > MAX_CLIP_PLANES) throw bad(path, `lists ${value.length} planes, more than ${MAX_CLIP_PLANES}`);
    return value.map((plane, i) => finiteList(plane, 4, `${path}[${i}]`, 'a plane [a, b, c, d]: four finite numbers') as [number, number, number, number]);
  },
  labels,
  t: (value, path) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_TIME_STEP)
      throw bad(path, `must be a time step (an integer of 0 or more), got ${show(value)}`);
    return value;
  },
  playing: (value, path) => {
    const rate = finite(value, path);
    if (rate < 0 || rate > MAX_PLAYING_RATE) throw bad(path, `must be steps per second from 0 (paused) to ${MAX_PLAYING_RATE}, got ${rate}`);
    return rate;
  },
  channels,
};

/** The display fields, in the order a layer lists them. */
export const DISPLAY_FIELDS = Object.keys(DISPLAY_CHECKS) as (keyof LayerDisplay)[];

/** What a layer shows when it does not say: visible, fully opaque, drawn translucent. */
export const DISPLAY_DEFAULTS = { visible: true, opacity: 1, blending: 'translucent' } as const satisfies LayerDisplay;
