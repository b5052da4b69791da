/**
 * @module mark-units
 * The units a room's marks are exported with, so a file read anywhere says what its numbers
 * mean. A mark's points and its length are in the length unit of the frame its points are in
 * (its layer's result's when it names a layer, else the room's: the active layer's); a volume
 * is in that unit cubed, written as the page writes it. A frame whose result states no unit (or
 * a layer the scene no longer has) gives none: the fields are left out of the JSON and empty in
 * the CSV. The host works these out itself, so an import ignores them.
 */
import type { Annotation } from '../wire/scene-types.ts';
import { volumeUnit } from '../wire/mark-format.ts';

/** The length unit of each frame of a room: its own, and each scene layer's (null: states none). */
export interface FrameUnits {
  room: string | null;
  layers: ReadonlyMap<string, string | null>;
}

/** A room whose frames state no unit. */
export const NO_UNITS: FrameUnits = { room: null, layers: new Map() };

/** The unit fields an exported mark carries, in the order they are written. */
export const UNIT_FIELDS = ['unit', 'length_unit', 'volume_unit'] as const;

export type MarkUnitFields = Partial<Record<(typeof UNIT_FIELDS)[number], string>>;

/** `mark`'s unit fields: its points' unit, and its measurement's when it has one. */
export function unitFieldsOf(mark: Pick<Annotation, 'layer' | 'length' | 'volume'>, units: FrameUnits): MarkUnitFields {
  // The length unit of the frame `mark`'s points are in, null when it states none.
  const unit = mark.layer === undefined ? units.room : (units.layers.get(mark.layer) ?? null);
  if (unit === null) return {};
  const fields: MarkUnitFields = { unit };
  if (mark.length !== undefined) fields.length_unit = unit;
  if (mark.volume !== undefined) fields.volume_unit = volumeUnit(unit);
  return fields;
}

/** A text that differs whenever `units` would write any mark differently (a key for kept forms). */
export function unitsKey(units: FrameUnits): string {
  return JSON.stringify([units.room, [...units.layers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}
