/**
 * @module peer-colour
 * Each peer's colour, worked out from its id alone, so every page and headset in the room
 * gives one peer the same colour (in the who-is-here list and on the stage) without asking.
 */

/** A bright, fairly saturated colour of `id`, as `#rrggbb`. */
export function peerColour(id: string): string {
  let hash = 2166136261;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
  const hue = (hash >>> 0) % 360;
  return hslHex(hue, 0.8, 0.62);
}

function hslHex(hue: number, saturation: number, lightness: number): string {
  const chroma = (1 - Math.abs(2 * lightness - 1)) * saturation;
  const channel = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const value = lightness - chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1)) / 2;
    return Math.round(value * 255).toString(16).padStart(2, '0');
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
