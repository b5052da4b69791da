/**
 * @module room-annotations
 * A room's annotations as scenes read them: snapshots record them and restore them, the
 * Neuroglancer state lists a layer per kind present, and a layer's source may bind a parameter
 * to the room's points. What of the annotation store (annotations/annotation-store.ts) the
 * scenes use.
 */
import type { AnnotationStore } from '../../annotations/annotation-store.ts';
import { intoLayerFrame, type BoundFrame } from '../../annotations/layer-frame.ts';
import type { Annotation, Vec3 } from '../../wire/scene-types.ts';

export type RoomAnnotations = Pick<AnnotationStore, 'list' | 'replace'>;

/**
 * The room's points (those labelled `label`, or all), in id order; in the frame of `frame`'s
 * layer when given (a bound layer's), else each as it was marked.
 */
export async function roomPoints(annotations: Pick<AnnotationStore, 'list'>, roomId: string, label?: string, frame?: BoundFrame): Promise<Vec3[]> {
  const { annotations: marks } = await annotations.list(roomId);
  return pointsOf(marks, label, frame);
}

/** The points among `marks` (those labelled `label`, or all), in `frame`'s layer frame when given. */
export function pointsOf(marks: readonly Annotation[], label?: string, frame?: BoundFrame): Vec3[] {
  const into = frame ? intoLayerFrame(frame) : (point: Vec3) => point;
  return marks
    .filter((mark) => mark.kind === 'point' && (label === undefined || mark.label === label) && mark.points[0])
    .map((mark) => into(mark.points[0]!, mark.layer));
}
