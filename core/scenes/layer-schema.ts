/**
 * @module layer-schema
 * A layer's fields as JSON Schema properties, for what agents and the API document are shown
 * (the checks that decide, with their field paths, are check-display.ts and check-layer.ts).
 */
import { BLENDINGS, DISPLAY_MODES } from './check-display.ts';
import { LAYER_KINDS } from './check-layer.ts';
import { COLORMAP_NAMES } from '../wire/colormaps.ts';
import { MAX_CHANNELS, MAX_CLIP_PLANES, MAX_LABEL_COLORS, MAX_NAME_LENGTH, MAX_SELECTED_LABELS } from './scene-limits.ts';

type Schema = Record<string, unknown>;

const numbers = (n: number): Schema => ({ type: 'array', items: { type: 'number' }, minItems: n, maxItems: n });
const WINDOW = { ...numbers(2), description: '[lo, hi] (lo < hi): the values the colour map spans' };
const COLOR = { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' };

/** The display fields; `null` (in a change) takes one back to its default. */
export const DISPLAY_PROPERTIES: Record<string, Schema> = {
  name: { type: 'string', minLength: 1, maxLength: MAX_NAME_LENGTH, description: 'What the layer list shows (default: its specimen or function)' },
  visible: { type: 'boolean', description: 'Drawn or hidden (default true)' },
  opacity: { type: 'number', minimum: 0, maximum: 1, description: '0 (clear) to 1 (opaque, the default)' },
  blending: { enum: [...BLENDINGS], description: 'How it combines with the layers below (default translucent)' },
  colormap: { enum: [...COLORMAP_NAMES], description: 'The colour map of a volume or image (glasbey: categorical, for labels)' },
  window: WINDOW,
  gamma: { type: 'number', exclusiveMinimum: 0, maximum: 100, description: 'Applied to the windowed value (1: linear)' },
  mode: { enum: [...DISPLAY_MODES], description: 'How a volume is drawn (slices, volume) or a mesh or cloud (surface, points)' },
  affine: {
    oneOf: [numbers(16), { type: 'array', items: numbers(4), minItems: 4, maxItems: 4 }],
    description: 'A 4×4 transform, row-major, in physical units: 16 numbers or 4 rows of 4, kept as 16 (identity when absent)',
  },
  clip_planes: { type: 'array', maxItems: MAX_CLIP_PLANES, items: numbers(4), description: 'Planes [a, b, c, d]: points with ax+by+cz+d >= 0 are kept' },
  labels: {
    type: 'object',
    description: 'How a labels layer is drawn',
    properties: {
      colors: { type: 'object', maxProperties: MAX_LABEL_COLORS, additionalProperties: COLOR, description: '{"<label id>": "#rrggbb"}: colour overrides' },
      selected: { type: 'array', maxItems: MAX_SELECTED_LABELS, items: { type: 'integer', minimum: 0 }, description: 'Selected label ids' },
      show: { enum: ['all', 'selected'], description: 'Every label, or only the selected ones' },
    },
    additionalProperties: false,
  },
  t: { type: 'integer', minimum: 0, description: 'The time step shown (results with a time axis)' },
  playing: { type: 'number', minimum: 0, description: 'Steps per second while playing; 0 when paused' },
  channels: {
    type: 'array',
    maxItems: MAX_CHANNELS,
    items: { type: 'object', properties: { visible: { type: 'boolean' }, color: COLOR, window: WINDOW }, additionalProperties: false },
    description: 'Each channel: visible, color, window',
  },
};

export const LAYER_ID_PROPERTY: Schema = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'The layer id' };
export const KIND_PROPERTY: Schema = {
  enum: [...LAYER_KINDS],
  description: 'image (volumes, images), labels (a segmentation volume), mesh or points; from the result when absent',
};
