/**
 * @module room-annotations
 * A room's annotations as scenes read them: snapshots record them and restore them, the
 * Neuroglancer state lists a layer per kind present, and a layer's source may bind a parameter
 * to the room's points. What of the annotation store (annotations/annotation-store.ts) the
 * scenes use.
 */
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { Vec3 } from '../client/scene-types.ts';

export type RoomAnnotations = Pick<AnnotationStore, 'list' | 'replace'>;

/** The room's points (those labelled `label`, or all), in id order. */
export async function roomPoints(annotations: Pick<AnnotationStore, 'list'>, roomId: string, label?: string): Promise<Vec3[]> {
  const { annotations: marks } = await annotations.list(roomId);
  return marks.filter((mark) => mark.kind === 'point' && (label === undefined || mark.label === label) && mark.points[0]).map((mark) => mark.points[0]!);
}
