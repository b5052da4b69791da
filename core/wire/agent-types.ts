/**
 * @module agent-types
 * The headset agent's words both the host and its clients speak (docs/agent.md): an entry of a
 * room's conversation as `history` lists it, an entry as the room's log and its `conversation`
 * event carry it, and the frames the agent socket sends.
 */

/** Entries `history` gives a joining socket (and a snapshot carries): the conversation's newest. */
export const HISTORY_ENTRIES = 200;

/** One entry of a room's conversation as `history` lists it (and a snapshot carries it). */
export interface TranscriptEntry {
  role: 'user' | 'agent';
  text: string;
}

/** A conversation entry of a room's log, as its `conversation` event carries it: a turn, or the end. */
export interface ConversationEntry {
  seq?: number;
  ts?: number;
  /** Who spoke: a user's name, `anonymous`, or `agent`. */
  by: string;
  /** The name an anonymous speaker gave (a page's `?name=`), shown in place of `anonymous`. */
  name?: string;
  type: 'conversation';
  role?: 'user' | 'agent';
  text?: string;
  /** The agent was cut off before its reply was complete. */
  interrupted?: boolean;
  /** `end`: the conversation ended (the next turn starts a new one). */
  op?: 'end';
}

/** A text frame the agent socket sends (each `type` with its fields). */
export type AgentFrame =
  | { type: 'history'; entries: TranscriptEntry[]; client_id: number }
  | { type: 'agent_text'; text: string }
  | { type: 'agent_text_done' }
  | { type: 'tool_call'; request_id: string; name: string; args: Record<string, unknown>; executor: number }
  | { type: 'status'; text: string }
  | { type: 'error'; message: string }
  | { type: 'turn_queued'; position: number }
  | { type: 'speaker_bound'; client_id: number }
  | { type: 'speaker_released' }
  | { type: 'transcript'; text: string; client_id: number; final: true }
  | { type: 'agent_audio_end'; interrupted: boolean };
