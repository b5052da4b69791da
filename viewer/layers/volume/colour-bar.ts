/**
 * @module colour-bar
 * A colour bar with window/level for scalar data (volumes, point-cloud scalars): the colour
 * map as a gradient labelled with the values its ends stand for, a picker of colour maps,
 * level (the window's centre) and width sliders over the data's range, and "Auto", which
 * goes back to the window read from the histogram. Values outside the window take the end
 * colours. It only reports changes; the owner recolours.
 */
import { h, smallButton, toolRow } from '../../dom.ts';
import { formatValue } from '../../../core/wire/format-value.ts';
import type { RoomView } from '../../../core/wire/room-types.ts';
import { COLORMAPS, colormapCss, type ColormapName } from './colormaps.ts';

/** What the bar shows. */
export interface ColourBarState {
  map: ColormapName;
  low: number;
  high: number;
}

export interface ColourBarOptions {
  /** The data's finite value range: the sliders' extent. */
  range: [number, number];
  /** The window to start with (and to go back to with "Auto"). */
  initial: ColourBarState;
  onChange(state: ColourBarState): void;
}

/** Slider resolution: this many steps across the data's range. */
const STEPS = 1000;

/** The bar settings a room's view names (a window with low < high, a colour map the viewer has). */
export function barSettingsOf(view: RoomView): Partial<ColourBarState> {
  const out: Partial<ColourBarState> = {};
  const w = view.window;
  if (Array.isArray(w) && w.length === 2 && w.every(Number.isFinite) && w[1] > w[0]) [out.low, out.high] = w;
  if (typeof view.colormap === 'string' && (COLORMAPS as string[]).includes(view.colormap)) out.map = view.colormap as ColormapName;
  return out;
}

/** What changed from `before` to `after`, as a room's view says it. */
export function barChangeOf(before: ColourBarState, after: ColourBarState): RoomView {
  const change: RoomView = {};
  if (after.low !== before.low || after.high !== before.high) change.window = [after.low, after.high];
  if (after.map !== before.map) change.colormap = after.map;
  return change;
}

/** Builds the bar. */
export function createColourBar(options: ColourBarOptions) {
  const [min, max] = options.range;
  const span = max - min || 1;
  let state: ColourBarState = { ...options.initial };

  const gradient = h('div', { class: 'colour-bar-gradient', 'data-testid': 'colour-bar-gradient' });
  const lowLabel = h('span', { 'data-testid': 'window-low' });
  const highLabel = h('span', { 'data-testid': 'window-high' });
  const picker = h('select', { class: 'select small', 'aria-label': 'colour map', 'data-testid': 'colour-map' });
  for (const name of COLORMAPS) picker.appendChild(h('option', { value: name }, name));
  const level = h('input', { type: 'range', class: 'slider', min: 0, max: STEPS, step: 1, 'aria-label': 'level', 'data-testid': 'level' });
  const width = h('input', {
    type: 'range',
    class: 'slider',
    min: 1,
    max: STEPS,
    step: 1,
    'aria-label': 'window width',
    'data-testid': 'width',
  });
  const auto = smallButton('Auto', 'Back to the window read from the histogram', 'window-auto');

  const show = (): void => {
    gradient.style.background = colormapCss(state.map);
    lowLabel.textContent = formatValue(state.low);
    highLabel.textContent = formatValue(state.high);
    picker.value = state.map;
    level.value = String(Math.round((((state.low + state.high) / 2 - min) / span) * STEPS));
    width.value = String(Math.max(1, Math.round(((state.high - state.low) / span) * STEPS)));
    element.dataset.low = String(state.low);
    element.dataset.high = String(state.high);
  };
  /** Shows `next` (a user's change, or a room's view) and tells the owner. */
  const update = (next: Partial<ColourBarState>): void => {
    state = { ...state, ...next };
    show();
    options.onChange({ ...state });
  };
  const fromSliders = (): void => {
    const centre = min + (Number(level.value) / STEPS) * span;
    const half = ((Number(width.value) / STEPS) * span) / 2;
    update({ low: centre - half, high: centre + half });
  };
  level.addEventListener('input', fromSliders);
  width.addEventListener('input', fromSliders);
  picker.addEventListener('change', () => update({ map: picker.value as ColormapName }));
  auto.addEventListener('click', () => update({ low: options.initial.low, high: options.initial.high }));

  const element = h(
    'div',
    { class: 'colour-bar', 'data-testid': 'colour-bar' },
    gradient,
    h('div', { class: 'colour-bar-labels' }, lowLabel, highLabel),
    toolRow('label', 'map', null, picker, auto),
    toolRow('label', 'level', 'The centre of the window', level),
    toolRow('label', 'width', 'The range of values the colour map spans', width),
  );
  show();
  return { element, state: (): ColourBarState => ({ ...state }), set: update };
}
