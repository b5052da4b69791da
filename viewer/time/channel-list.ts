/**
 * @module channel-list
 * The channel list of a volume with a channel axis: for each channel its name, whether it is
 * drawn, its colour and its window (the values its colour spans, black below, full colour
 * above). Every change reports the whole list, as the room's layer keeps it. Rows are
 * updated in place, so a field being typed in is not rebuilt under the cursor.
 */
import type { LayerChannel } from '../../core/wire/scene-types.ts';
import { h } from '../dom.ts';

/** A channel as the list shows it: the room's values over the result's own. */
export interface ChannelState {
  name: string;
  visible: boolean;
  color: string;
  window: [number, number];
}

type Row = Record<'visible' | 'color' | 'low' | 'high', HTMLInputElement>;

export class ChannelList {
  readonly element: HTMLElement;
  readonly #rows: Row[] = [];
  #states: ChannelState[] = [];

  /** `change` gets every channel's settings after the user changed one. */
  constructor(count: number, change: (channels: LayerChannel[]) => void) {
    const report = (): void => {
      const channels = this.#rows.map((row, i): LayerChannel => {
        const [low, high] = [Number(row.low.value), Number(row.high.value)];
        const window: [number, number] =
          Number.isFinite(low) && Number.isFinite(high) && low < high ? [low, high] : this.#states[i]!.window;
        return { visible: row.visible.checked, color: row.color.value, window };
      });
      change(channels);
    };
    const items: HTMLElement[] = [];
    for (let i = 0; i < count; i++) {
      const at = { 'data-channel': i };
      const input = (type: string, cls: string | undefined, what: string, control: string): HTMLInputElement =>
        h('input', { type, class: cls, 'aria-label': `channel ${i} ${what}`, 'data-control': `channel-${control}`, ...at });
      const row: Row = {
        visible: input('checkbox', undefined, 'visible', 'visible'),
        color: input('color', 'channel-color', 'colour', 'color'),
        low: input('number', 'num channel-window', 'window low', 'low'),
        high: input('number', 'num channel-window', 'window high', 'high'),
      };
      for (const input of Object.values(row)) input.addEventListener('change', report);
      this.#rows.push(row);
      const name = h('span', { class: 'channel-name' });
      items.push(h('li', { class: 'channel-row', 'data-testid': 'channel-row', ...at }, row.visible, row.color, name, row.low, row.high));
    }
    this.element = h('ol', { class: 'channel-list', 'data-testid': 'channel-list' }, ...items);
  }

  show(states: ChannelState[]): void {
    this.#states = states;
    states.forEach((state, i) => {
      const row = this.#rows[i];
      if (!row) return;
      row.visible.checked = state.visible;
      row.color.value = state.color;
      (row.visible.parentElement!.querySelector('.channel-name') as HTMLElement).textContent = state.name;
      if (document.activeElement !== row.low) row.low.value = String(+state.window[0].toPrecision(4));
      if (document.activeElement !== row.high) row.high.value = String(+state.window[1].toPrecision(4));
    });
  }
}
