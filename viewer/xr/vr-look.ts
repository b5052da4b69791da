/**
 * @module vr-look
 * The VR panel's look controls over the page's own: the colour map picker and the volume view
 * picker of the shown result's tool panel. A step from the headset changes the page's control
 * and fires its `change`, so it is the page's change in every way (a followed room gets it).
 */
import type { VrLook } from './vr-panel.ts';

/** The next option of `select` that is not disabled, after the chosen one (wrapping round). */
function nextOption(select: HTMLSelectElement): string {
  const options = [...select.options].filter((o) => !o.disabled);
  const at = options.findIndex((o) => o.value === select.value);
  return options[(at + 1) % options.length]?.value ?? select.value;
}

export function pageLook(tools: HTMLElement): { current(): VrLook | null; step(setting: 'colormap' | 'mode'): void } {
  const colormap = (): HTMLSelectElement | null => tools.querySelector('[data-testid=colour-map]');
  const mode = (): HTMLSelectElement | null => tools.querySelector('select[data-axis=view]');
  return {
    current() {
      const map = colormap();
      return map ? { colormap: map.value, mode: mode()?.value ?? null } : null;
    },
    step(setting) {
      const select = setting === 'colormap' ? colormap() : mode();
      if (!select) return;
      const next = nextOption(select);
      if (next === select.value) return;
      select.value = next;
      select.dispatchEvent(new Event('change'));
    },
  };
}
