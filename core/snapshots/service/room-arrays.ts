/**
 * @module room-arrays
 * A room's published arrays go where its scene goes. An array the notebook gives a room's layer
 * is published for that room alone (`<room>.<name>`: listed to `?room=` of it, read under its
 * access), so a snapshot or a session restored into a room of another name would name arrays
 * that room has not got: its page would find no specimen and no unit. Restoring copies each
 * array its layers name that was published for another room, and that the one restoring may
 * read, into the room restored into, under the name the notebook would give it there
 * (`<room>.<name>`, the same bytes and all their publisher said of them, this room's access),
 * and the restored layers name the copy. An array the one restoring may not read stays as it
 * is, unnamed to them; an id the room already uses for something other than its own array is
 * left alone (the layer keeps naming the original).
 */
import type { SceneLayer } from '../../wire/scene-types.ts';
import { renameSpecimens, specimensOfScene } from '../../scenes/scene-names.ts';
import { carriedSpecimens, publishSaid, type SessionSpecimenDeps } from './session-specimens.ts';

/** The id `id`, an array published for room `from`, takes in room `roomId`. */
export function idInRoom(id: string, from: string, roomId: string): string {
  const name = id.startsWith(`${from}.`) ? id.slice(from.length + 1) : id;
  return `${roomId}.${name}`;
}

/**
 * Publishes into `roomId` the arrays of other rooms `layers` name (those the one asking may
 * read), and answers the layers naming the copies. @throws what publishing them would (the
 * byte budget, a write of the room), before the room changes.
 */
export async function arraysIntoRoom(deps: SessionSpecimenDeps, roomId: string, layers: SceneLayer[]): Promise<SceneLayer[]> {
  const named = specimensOfScene({ layers });
  if (named.size === 0) return layers;
  await deps.published.refresh();
  const others = [...named].filter((id) => {
    const record = deps.catalog.get(id);
    return record?.origin === 'published' && record.room !== undefined && record.room !== roomId;
  });
  if (others.length === 0) return layers;
  const names = new Map<string, string>();
  for (const array of await carriedSpecimens(deps, others)) {
    const from = deps.catalog.get(array.id)?.room;
    if (from === undefined) continue;
    const target = idInRoom(array.id, from, roomId);
    const there = deps.catalog.get(target);
    if (there && (there.origin !== 'published' || there.room !== roomId)) continue;
    if (!there || there.published?.sha256 !== array.header.sha) {
      const said = array.header.display_name === array.id ? { ...array.header, display_name: target } : array.header;
      await publishSaid(deps, target, { ...said, room: roomId }, Buffer.from(array.bytes));
    }
    names.set(array.id, target);
  }
  if (names.size === 0) return layers;
  return layers.map((layer) => ({ ...layer, source: renameSpecimens(layer.source, names) }));
}
