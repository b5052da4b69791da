/**
 * @module replay-target
 * What a replay writes into a room, as a port the host's assembly answers with its room
 * services (so every write is an ordinary change: stored, announced to the room's followers
 * and recorded in its log). Each setter sets its part whole, as the other room had it.
 */
import type { ConversationChange } from './conversation-record.ts';
import type { TranscriptEntry } from '../wire/agent-types.ts';
import type { FoldedRoom } from './room-fold.ts';

export interface ReplayTarget {
  setView(roomId: string, view: Record<string, unknown>): Promise<void>;
  /** Sets the layers and active layer (each layer computed again in this room; nothing written when they are already these). */
  setScene(roomId: string, scene: NonNullable<FoldedRoom['scene']>): Promise<void>;
  setAnnotations(roomId: string, annotations: Record<string, unknown>[]): Promise<void>;
  /** Shows a static specimen the other room showed (a computed entry comes with its scene's active layer). */
  showEntry(roomId: string, entry: Record<string, unknown>): Promise<void>;
  /** Adds a turn (or the end) to the room's conversation, as the other room's log has it. */
  sayConversation(roomId: string, change: ConversationChange): Promise<void>;
  /** Makes the room's conversation these entries (a new conversation, when it held one). */
  setConversation(roomId: string, entries: readonly TranscriptEntry[]): Promise<void>;
}

/** Sets every part `state` holds into the room (parts it does not hold: left empty when `reset`). */
export async function applyState(target: ReplayTarget, roomId: string, state: FoldedRoom, reset: boolean): Promise<void> {
  if (state.scene || reset) await target.setScene(roomId, state.scene ?? { layers: [], active: null });
  if (state.view || reset) await target.setView(roomId, state.view ?? {});
  if (state.annotations || reset) await target.setAnnotations(roomId, [...(state.annotations?.values() ?? [])]);
  if (state.entry) await target.showEntry(roomId, state.entry);
  if (state.conversation || reset) await target.setConversation(roomId, state.conversation?.entries ?? []);
}
