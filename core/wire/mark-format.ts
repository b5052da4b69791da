/**
 * @module mark-format
 * How a mark's words read, on the page and in the room's picture: a ruler's length and a
 * box's volume as the host measured them, in the unit of the frame its points are in (cubed
 * for a volume), bare when that frame states no unit; and what is written beside a mark (its
 * label, then its measurement).
 */
import { formatValue } from './format-value.ts';
import type { Annotation } from './scene-types.ts';

/** The unit a volume measured in length unit `unit` is in: `um³`. */
export const volumeUnit = (unit: string): string => `${unit}³`;

/** `length 12.5 um`, `volume 40 um³`, '' for a kind the host measures nothing of. */
export function measurementOf(mark: Pick<Annotation, 'length' | 'volume'>, unit: string | null): string {
  if (typeof mark.length === 'number') return `length ${formatValue(mark.length)}${unit ? ` ${unit}` : ''}`;
  if (typeof mark.volume === 'number') return `volume ${formatValue(mark.volume)}${unit ? ` ${volumeUnit(unit)}` : ''}`;
  return '';
}

/** What is written beside `mark`: `nucleus · length 12.5 um`, '' for nothing. */
export function markText(mark: Pick<Annotation, 'kind' | 'label' | 'length' | 'volume'>, unit: string | null): string {
  return [mark.label ?? '', mark.kind === 'point' ? '' : measurementOf(mark, unit)].filter(Boolean).join(' · ');
}
