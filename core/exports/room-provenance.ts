/**
 * @module room-provenance
 * What made what a room shows: every layer's provenance as its result recorded it (null for a
 * layer not computed yet, or a static file; a stale layer's says why), and its entry's (from its active layer when that
 * shows the entry's function, else from the function and the entry's values). The provenance
 * route answers it; a room's picture carries it in its PNG text, so a figure says what made it.
 */
import type { FunctionRegistry } from '../registry/function-registry.ts';
import { hostVersion, provenanceOf } from '../versions/provenance.ts';
import { provenanceSentence } from '../wire/provenance-sentence.ts';
import type { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import type { RoomScenes } from '../scenes/service/room-scenes.ts';
import { computedProvenance, type LayerProvenance, type RoomProvenance } from '../wire/provenance-types.ts';
import type { RoomScene } from '../wire/scene-types.ts';
import type { RoomEntry } from '../wire/room-types.ts';

/** What the room's provenance reads. */
export interface RoomProvenanceDeps {
  scenes: Pick<RoomScenes, 'scene'>;
  rooms: Pick<RoomWorkspace, 'entry'>;
  functions: Pick<FunctionRegistry, 'get'>;
}

/** The room's provenance: its layers' as their results recorded it; its entry's from its active layer, else its function. */
export async function roomProvenance(deps: RoomProvenanceDeps, roomId: string): Promise<RoomProvenance> {
  const [scene, entry] = await Promise.all([deps.scenes.scene(roomId), deps.rooms.entry(roomId)]);
  return provenanceOfRoom(deps.functions, roomId, scene, entry);
}

/** The provenance of `scene` and `entry` as read (a picture says what made the scene it drew). */
export function provenanceOfRoom(functions: RoomProvenanceDeps['functions'], roomId: string, scene: RoomScene, entry: RoomEntry | null): RoomProvenance {
  const layers = scene.layers.map((layer) => ({ id: layer.id, provenance: layer.result?.provenance ?? null, ...(layer.stale ? { stale: layer.stale } : {}) }));
  let shown: LayerProvenance | null = scene.layers.find((layer) => layer.id === scene.active)?.result?.provenance ?? null;
  if (entry?.function_name && computedProvenance(shown)?.function !== entry.function_name) {
    const fn = functions.get(entry.function_name);
    shown = fn ? provenanceOf(fn, entry.params) : null;
  }
  // A published array shown as the entry says what published it, as its layer does.
  return { room: roomId, entry: entry ? shown : null, layers };
}

/**
 * The PNG text of a room's picture: `Software`, a `Title`, a `Comment` with one line per
 * computed layer (or the entry) saying what made it, and `vitrine:provenance` with the whole
 * record as JSON for a script to read.
 */
export function provenanceText(provenance: RoomProvenance, layerIds?: ReadonlySet<string>): Record<string, string> {
  const layers = provenance.layers.filter((layer) => !layerIds || layerIds.has(layer.id));
  const lines = layers.flatMap((layer) => {
    if (!layer.provenance) return [];
    const stale = layer.stale ? ` (stale: ${layer.stale.detail})` : '';
    return [`layer ${layer.id}: ${provenanceSentence(layer.provenance)}${stale}`];
  });
  if (layers.length === 0 && provenance.entry) lines.push(`entry: ${provenanceSentence(provenance.entry)}`);
  const kept: RoomProvenance = { room: provenance.room, entry: provenance.entry, layers };
  return {
    Software: `vitrine ${hostVersion()}`,
    Title: `room ${provenance.room}`,
    ...(lines.length > 0 ? { Comment: lines.join('\n') } : {}),
    'vitrine:provenance': JSON.stringify(kept),
  };
}
