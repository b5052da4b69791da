/**
 * @module room-annotations
 * A room's annotations as scenes read them: snapshots record them, the Neuroglancer state lists
 * a layer per kind present, and a layer's source may bind a parameter to the room's points. A
 * port, so scenes need not know where marks are kept; until a host keeps any, a room has none.
 */
import type { Annotation, Vec3 } from '../client/scene-types.ts';

export interface RoomAnnotations {
  /** The room's annotations (an empty list when it has none). */
  list(roomId: string): Promise<Annotation[]>;
}

/** A room with no annotations: what a host that keeps none answers. */
export const NO_ANNOTATIONS: RoomAnnotations = { list: async () => [] };

/** The room's points (those labelled `label`, or all), in the order the list gives them. */
export async function roomPoints(annotations: RoomAnnotations, roomId: string, label?: string): Promise<Vec3[]> {
  const marks = await annotations.list(roomId);
  return marks.filter((mark) => mark.kind === 'point' && (label === undefined || mark.label === label) && mark.points[0]).map((mark) => mark.points[0]!);
}
