/**
 * @module mark-colours
 * The colour a mark is drawn in: its own, else its kind's. One home for the page's marks and
 * the room's picture, so a point is the same yellow in both.
 */
import type { Annotation, AnnotationKind } from './scene-types.ts';

/** A colour per kind, for marks that name none. */
const KIND_COLOURS: Record<AnnotationKind, string> = {
  point: '#ffcc33',
  line: '#5cf2a0',
  polyline: '#5cf2a0',
  box: '#ff6fb1',
  ellipsoid: '#b48cff',
};

/** The colour `mark` is drawn in (a CSS colour; the kind's `#rrggbb` when it names none). */
export function colourOf(mark: Pick<Annotation, 'kind' | 'color'>): string {
  return mark.color ?? KIND_COLOURS[mark.kind];
}
