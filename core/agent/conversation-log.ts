/**
 * @module conversation-log
 * A room's conversation as its log keeps it: each turn, the user's and the agent's, is an entry
 * `{type: "conversation", role, text}` stamped `by` its speaker (the user who sent it, `agent` for
 * the agent's), and ending the conversation is an entry `{op: "end"}`. So a late joiner, a replay
 * and a snapshot see the transcript, and a host that restarts (or takes the room over from
 * another host of a service) reads the conversation back from the log. Every entry is also
 * announced as the room's `conversation` event, which the viewer's panel follows.
 */
import { asActor } from '../history/request-actor.ts';
import type { RoomRecorder } from '../history/room-recorder.ts';
import type { LogEntry } from '../history/room-log-store.ts';
import { MAX_LOG_PAGE } from '../history/room-log-store.ts';
import type { TranscriptEntry } from './agent-frames.ts';

/** Entries `history` gives a joining socket: the conversation's newest. */
export const HISTORY_ENTRIES = 200;

/** `by` of what the agent says. */
export const AGENT_ACTOR = 'agent';

/** The room event each conversation entry is announced as. */
export const CONVERSATION_EVENT = 'conversation';

/** The conversation's newest entries, at most {@link HISTORY_ENTRIES}. */
export class Transcript {
  #entries: TranscriptEntry[] = [];

  get entries(): readonly TranscriptEntry[] {
    return this.#entries;
  }

  add(entry: TranscriptEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > HISTORY_ENTRIES) this.#entries.splice(0, this.#entries.length - HISTORY_ENTRIES);
  }

  clear(): void {
    this.#entries = [];
  }

  /** Folds one log entry in (others than the conversation's are passed over). */
  fold(entry: LogEntry | Record<string, unknown>): void {
    if (entry.type !== 'conversation') return;
    if (entry.op === 'end') return this.clear();
    if ((entry.role === 'user' || entry.role === 'agent') && typeof entry.text === 'string') this.add({ role: entry.role, text: entry.text });
  }
}

export class ConversationLog {
  #recorder: RoomRecorder;
  #announce: (roomId: string, event: string, data: unknown) => Promise<void>;

  constructor(recorder: RoomRecorder, announce: (roomId: string, event: string, data: unknown) => Promise<void>) {
    this.#recorder = recorder;
    this.#announce = announce;
  }

  /** The room's current conversation, read from its log (oldest first, since its last end). */
  async load(roomId: string): Promise<Transcript> {
    const transcript = new Transcript();
    let since = 0;
    for (;;) {
      const page = await this.#recorder.store.read(roomId, since, MAX_LOG_PAGE);
      for (const entry of page.entries) transcript.fold(entry);
      if (!page.more) return transcript;
      since = page.next_since;
    }
  }

  /** Records a turn said by `by`; answers the log's entry (null when the log could not take it). */
  async said(roomId: string, entry: TranscriptEntry & { interrupted?: boolean }, by: string): Promise<LogEntry | null> {
    const logged = await asActor(by, () => this.#recorder.record(roomId, 'conversation', { ...entry }));
    await this.#announce(roomId, CONVERSATION_EVENT, logged ?? { type: 'conversation', by, ...entry }).catch(() => {});
    return logged;
  }

  /** Records that the conversation ended (the next turn starts a new one). */
  async ended(roomId: string, by: string): Promise<void> {
    const logged = await asActor(by, () => this.#recorder.record(roomId, 'conversation', { op: 'end' }));
    await this.#announce(roomId, CONVERSATION_EVENT, logged ?? { type: 'conversation', by, op: 'end' }).catch(() => {});
  }
}
