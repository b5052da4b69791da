/**
 * @module mark-format
 * How a mark reads on the page: its kind in a word, a ruler's length and a box's volume as the
 * host measured them, in the unit of the frame its points are in (cubed for a volume), bare
 * when that frame states no unit; the colour a mark is drawn in when it names none; and the
 * newest marks as one line each with who made them (the VR panel lists those).
 */
import type { Annotation, AnnotationKind } from '../../../core/wire/scene-types.ts';
import { formatValue } from '../volume/colour-bar.ts';

/** `length 12.5 um`, `volume 40 um³`, '' for a kind the host measures nothing of. */
export function measurementOf(mark: Pick<Annotation, 'length' | 'volume'>, unit: string | null): string {
  if (typeof mark.length === 'number') return `length ${formatValue(mark.length)}${unit ? ` ${unit}` : ''}`;
  if (typeof mark.volume === 'number') return `volume ${formatValue(mark.volume)}${unit ? ` ${unit}³` : ''}`;
  return '';
}

/** A colour per kind, for marks that name none. */
const KIND_COLOURS: Record<AnnotationKind, string> = {
  point: '#ffcc33',
  line: '#5cf2a0',
  polyline: '#5cf2a0',
  box: '#ff6fb1',
  ellipsoid: '#b48cff',
};

/** The colour `mark` is drawn in. */
export function colourOf(mark: Pick<Annotation, 'kind' | 'color'>): string {
  return mark.color ?? KIND_COLOURS[mark.kind];
}

/** Each kind of mark in a word, as the lists say it. */
export const KIND_WORDS: Record<AnnotationKind, string> = {
  point: 'point',
  line: 'ruler',
  polyline: 'path',
  box: 'box',
  ellipsoid: 'ellipsoid',
};

/** A mark in one line: its kind, label and measurement, and who made it ('' when nobody is known). */
export interface MarkLine {
  id: string;
  text: string;
  author: string;
}

/** The room's marks as the VR panel lists them: how many there are, and the newest in a line each. */
export interface MarkLines {
  total: number;
  newest: readonly MarkLine[];
}

/** The newest `count` of `marks` (newest first), each in one line; `measurement` says what the host measured of it. */
export function newestMarkLines(
  marks: readonly Annotation[],
  count: number,
  measurement: (mark: Annotation) => string,
): MarkLine[] {
  const newest = [...marks].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1)).slice(0, count);
  return newest.map((mark) => ({
    id: mark.id,
    text: [KIND_WORDS[mark.kind], mark.label ?? '', measurement(mark)].filter(Boolean).join(' - '),
    author: mark.author ?? '',
  }));
}
