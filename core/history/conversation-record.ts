/**
 * @module conversation-record
 * A room's conversation with its agent as the room's log keeps it: each turn, the user's and
 * the agent's, is an entry `{type: "conversation", role, text}` stamped `by` its speaker (the user
 * who spoke, `agent` for the agent's), and ending the conversation is an entry `{op: "end"}`. So
 * a late joiner, a replay and a snapshot carry the transcript, and a host that restarts (or takes
 * a room over from another host of a service) reads the conversation back from the log. Each
 * entry written is also the room's `conversation` event (the viewer's panel follows it) and is
 * told to this host's listeners (the agent's rooms, which keep their transcript in step with
 * what a replay writes).
 */
import { asActor, currentActor } from './request-actor.ts';
import type { RoomRecorder } from './room-recorder.ts';
import { MAX_LOG_PAGE, type LogEntry, type RoomLogStore } from './room-log-store.ts';
import { HISTORY_ENTRIES, type TranscriptEntry } from '../wire/agent-types.ts';

/**
 * What a conversation's entry says: a turn, or its end. A person's turn may carry the `name`
 * they gave (an anonymous page's `?name=`), which `by` (the user, `anonymous`) cannot say.
 */
export type ConversationChange = (TranscriptEntry & { interrupted?: boolean; name?: string }) | { op: 'end' };

/** The change a conversation entry of a log records. */
export function conversationChange(entry: Record<string, unknown>): ConversationChange {
  if (entry.op === 'end') return { op: 'end' };
  return {
    role: entry.role === 'agent' ? 'agent' : 'user',
    text: String(entry.text ?? ''),
    ...(entry.interrupted === true ? { interrupted: true } : {}),
    ...(typeof entry.name === 'string' ? { name: entry.name } : {}),
  };
}

/** `by` of what the agent says. */
export const AGENT_ACTOR = 'agent';

/** The room event each conversation entry is announced as. */
export const CONVERSATION_EVENT = 'conversation';

/** Most characters of one entry's text a transcript keeps (the log keeps it whole). */
export const HISTORY_ENTRY_CHARS = 64 * 1024;
/** Most characters of text a transcript keeps in all, so a `history` frame stays well within a text frame's 1 MiB. */
export const HISTORY_CHARS = 256 * 1024;

/** `text` cut to {@link HISTORY_ENTRY_CHARS}, saying so. */
function shortened(text: string): string {
  return text.length <= HISTORY_ENTRY_CHARS ? text : `${text.slice(0, HISTORY_ENTRY_CHARS)}… (cut here; the room's log keeps the whole)`;
}

/**
 * The conversation's newest entries, at most {@link HISTORY_ENTRIES} and {@link HISTORY_CHARS} of
 * text: what a joining socket's `history` frame carries, bounded whatever was said.
 */
export class Transcript {
  #entries: TranscriptEntry[] = [];
  #chars = 0;

  get entries(): readonly TranscriptEntry[] {
    return this.#entries;
  }

  add(entry: TranscriptEntry): void {
    const text = shortened(entry.text);
    this.#entries.push({ role: entry.role, text });
    this.#chars += text.length;
    let drop = 0;
    while (this.#entries.length - drop > HISTORY_ENTRIES || (this.#chars > HISTORY_CHARS && this.#entries.length - drop > 1)) {
      this.#chars -= this.#entries[drop++]!.text.length;
    }
    if (drop > 0) this.#entries.splice(0, drop);
  }

  clear(): void {
    this.#entries = [];
    this.#chars = 0;
  }

  /** Folds one change in (a log entry of another type is passed over). */
  fold(entry: Record<string, unknown>): void {
    if (entry.type !== undefined && entry.type !== 'conversation') return;
    if (entry.op === 'end') return this.clear();
    if ((entry.role === 'user' || entry.role === 'agent') && typeof entry.text === 'string') this.add({ role: entry.role, text: entry.text });
  }
}

/** Hears each conversation change written on this host, with the `origin` its writer gave. */
export type ConversationListener = (roomId: string, change: ConversationChange, origin: unknown) => void;

export class ConversationRecord {
  #recorder: RoomRecorder;
  #announce: (roomId: string, event: string, data: unknown) => Promise<void>;
  #listeners = new Set<ConversationListener>();

  constructor(recorder: RoomRecorder, announce: (roomId: string, event: string, data: unknown) => Promise<void>) {
    this.#recorder = recorder;
    this.#announce = announce;
  }

  get log(): RoomLogStore {
    return this.#recorder.store;
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

  /** Hears every change written on this host from now on; answers what stops it. */
  listen(listener: ConversationListener): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Records `change` by `by` (absent: whoever the work is done for) and announces it; answers the
   * log's entry (null when the log could not take it). `origin` is passed to the listeners.
   */
  async write(roomId: string, change: ConversationChange, by?: string, origin?: unknown): Promise<LogEntry | null> {
    for (const listener of this.#listeners) listener(roomId, change, origin);
    const actor = by ?? currentActor();
    const logged = await asActor(actor, () => this.#recorder.record(roomId, 'conversation', { ...change }));
    await this.#announce(roomId, CONVERSATION_EVENT, logged ?? { type: 'conversation', by: actor, ...change }).catch(() => {});
    return logged;
  }
}
