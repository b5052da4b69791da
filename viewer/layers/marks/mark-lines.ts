/**
 * @module mark-lines
 * A mark in one line as the lists say it: its kind in a word, its label and measurement, and
 * who made it; and the room's newest marks so (the VR panel lists those).
 */
import type { Annotation, AnnotationKind } from '../../../core/wire/scene-types.ts';

/** Each kind of mark in a word, as the lists say it. */
export const KIND_WORDS: Record<AnnotationKind, string> = {
  point: 'point',
  line: 'ruler',
  polyline: 'path',
  box: 'box',
  ellipsoid: 'ellipsoid',
};

/** A mark in one line: its kind, label and measurement, and who made it ('' when nobody is known). */
export type MarkLine = Record<'id' | 'text' | 'author', string>;

/** The room's marks as the VR panel lists them: how many there are, and the newest in a line each. */
export interface MarkLines {
  total: number;
  newest: readonly MarkLine[];
}

/** The newest `count` of `marks` (newest first), each in one line; `measurement` says what the host measured of it. */
export function newestMarkLines(marks: readonly Annotation[], count: number, measurement: (mark: Annotation) => string): MarkLine[] {
  const newest = [...marks].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1)).slice(0, count);
  return newest.map((mark) => ({
    id: mark.id,
    text: [KIND_WORDS[mark.kind], mark.label ?? '', measurement(mark)].filter(Boolean).join(' - '),
    author: mark.author ?? '',
  }));
}
