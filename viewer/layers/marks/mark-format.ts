/**
 * @module mark-format
 * How a mark's measurement reads on the page: a ruler's length and a box's volume as the host
 * measured them, in the unit of the frame its points are in (cubed for a volume), bare when
 * that frame states no unit; and the colour a mark is drawn in when it names none.
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
