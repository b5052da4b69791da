/**
 * @module vr-theme
 * The VR panel's colours and sizes (pixels of the panel: one is a millimetre in the room),
 * matched to the page's dark theme.
 */
export const VR_THEME = {
  panel: '#0f1620',
  surface: '#1a2431',
  accent: '#5cc8ff',
  accentDim: '#2f7fb0',
  text: '#dfe8f2',
  muted: '#8ea0b4',
  warn: '#ffc46b',
  error: '#ff7a7a',
  radius: 10,
  fontSize: 18,
  smallFont: 14,
  /** Room metres per panel pixel. */
  pixelSize: 0.001,
} as const;
