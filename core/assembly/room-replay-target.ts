/**
 * @module room-replay-target
 * A replay's writes as a host makes them (history/replay-target.ts): through the same room
 * services the routes use, so each is stored, announced to the room's followers and recorded in
 * the room's log like any other change (a conversation's turns through the conversation record,
 * so a room's held agent hears them). A part the room already holds as asked is not written
 * again: a scene whose layers and active layer are already the room's (a log records each
 * layer's result arriving; the replayed room computes its own, but an edited layer's version is
 * set as the log has it), the same view, no marks on none,
 * the static specimen the room already shows (the replayed room showed it itself once its own
 * layer's result arrived, and a second `result` event would have its followers load it again).
 */
import type { Annotation, RoomScene, SceneLayer } from '../wire/scene-types.ts';
import type { ReplayTarget } from '../history/replay-target.ts';
import { stableJson } from '../wire/stable-json.ts';
import { editedFrom, type LayerProvenance } from '../wire/provenance-types.ts';
import { VIEW_FIELDS, type ViewChange } from '../rooms/room-view.ts';
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { RoomScenes } from '../scenes/service/room-scenes.ts';
import type { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import type { ConversationRecord } from '../history/conversation-record.ts';

/**
 * A scene's layers and active layer, without what each layer's computation left in it; an edited
 * labels layer's version is kept: no computation gives it, so a replay sets it, edit after edit.
 */
function shape(scene: { layers: readonly object[]; active: string | null }): string {
  const own = (layer: { result?: { provenance?: LayerProvenance } }) => (editedFrom(layer.result?.provenance) ? layer.result : undefined);
  return JSON.stringify({ layers: scene.layers.map((layer) => ({ ...layer, result: own(layer) })), active: scene.active });
}

export function roomReplayTarget(deps: {
  conversations: Pick<ConversationRecord, 'write' | 'load'>;
  rooms: Pick<RoomWorkspace, 'view' | 'changeView' | 'showStatic' | 'ownEntry'>;
  scenes: Pick<RoomScenes, 'scene' | 'restore'>;
  annotations: Pick<AnnotationStore, 'replace' | 'version' | 'list'>;
}): ReplayTarget {
  return {
    async setView(roomId, view) {
      if (stableJson(await deps.rooms.view(roomId)) === stableJson(view)) return;
      const change: ViewChange = {};
      for (const field of VIEW_FIELDS) (change as Record<string, unknown>)[field] = view[field] ?? null;
      await deps.rooms.changeView(roomId, change);
    },
    async setScene(roomId, scene) {
      const current: RoomScene = await deps.scenes.scene(roomId);
      if (shape(current) === shape(scene)) return;
      await deps.scenes.restore(roomId, { layers: scene.layers as unknown as SceneLayer[], active: scene.active });
    },
    async setAnnotations(roomId, annotations) {
      if (annotations.length === 0 && (await deps.annotations.list(roomId)).annotations.length === 0) return;
      await deps.annotations.replace(roomId, annotations as unknown as Annotation[]);
    },
    async showEntry(roomId, entry) {
      if (entry.function_name !== null || typeof entry.specimen_id !== 'string' || typeof entry.type !== 'string') return;
      const shown = await deps.rooms.ownEntry(roomId);
      if (shown?.function_name === null && shown.specimen_id === entry.specimen_id && shown.type === entry.type) return;
      await deps.rooms.showStatic(roomId, entry.specimen_id, entry.type);
    },
    async sayConversation(roomId, change) {
      await deps.conversations.write(roomId, change);
    },
    async setConversation(roomId, entries) {
      const held = (await deps.conversations.load(roomId)).entries;
      if (JSON.stringify(held) === JSON.stringify(entries)) return;
      if (held.length > 0) await deps.conversations.write(roomId, { op: 'end' });
      for (const entry of entries) await deps.conversations.write(roomId, entry);
    },
  };
}
