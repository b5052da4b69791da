/**
 * @module agent-link
 * The page's agent socket in the room it follows (`WS /ws/agent/{room}?kind=page`, with the
 * page's `?name=`: the roster lists it under the page's name), handed to the
 * Agent panel: each time the page starts following a room, the socket is opened and the
 * conversation read from the room's log, the room's `conversation` events that came meanwhile
 * applied after it (each once, by seq). A socket that drops is opened again after a wait, and
 * the conversation read again; one the host closed for what the page sent is not.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { AgentFrame, ConversationEntry } from '../../core/wire/agent-types.ts';
import { AgentPanel } from '../panels/agent-panel.ts';
import { readPageName } from '../url-state.ts';

/** Close codes the host gives for what the page sent or may no longer read: refused, not lost. */
const REFUSED = new Set([1008, 1009]);
const RETRY_MS = 2000;

type Conversation = { entries: ConversationEntry[]; last: number };

/** The conversation since the room's last end, as its log holds it, and the log's newest seq. */
async function conversationOf(client: VitrineClient, room: string, signal: AbortSignal): Promise<Conversation> {
  let entries: ConversationEntry[] = [];
  let since = 0;
  for (;;) {
    const page = await client.roomLog(room, since, signal);
    for (const entry of page.entries) {
      if (entry.type !== 'conversation') continue;
      if (entry.op === 'end') entries = [];
      else entries.push(entry as unknown as ConversationEntry);
    }
    if (!page.more) return { entries, last: page.last_seq };
    since = page.next_since;
  }
}

export class AgentLink {
  readonly panel: AgentPanel;
  readonly #client: VitrineClient;
  #socket: WebSocket | null = null;
  #room: string | null = null;
  #abort: AbortController | null = null;
  /** Events that came while the log was being read: applied after it. */
  #held: ConversationEntry[] | null = null;

  constructor(client: VitrineClient) {
    this.#client = client;
    this.panel = new AgentPanel({ send: (frame) => this.#send(frame) });
    this.panel.connected(null);
  }

  /** Follows `room`'s conversation (null: none; the page follows no room). */
  follow(room: string | null): void {
    this.#abort?.abort();
    this.#socket?.close(1000, 'the page left the room');
    this.#socket = null;
    this.#room = room;
    this.panel.connected(null);
    if (room === null) return;
    this.#abort = new AbortController();
    void this.#open(room, this.#abort.signal);
  }

  /** A `conversation` event of the followed room. */
  event(entry: ConversationEntry): void {
    if (this.#held) this.#held.push(entry);
    else this.panel.conversation(entry);
  }

  async #open(room: string, signal: AbortSignal): Promise<void> {
    this.#held = [];
    try {
      const url = await this.#client.agentUrl(room, { kind: 'page', name: readPageName() }, signal);
      if (signal.aborted) return;
      const socket = new WebSocket(url);
      this.#socket = socket;
      socket.onmessage = (message) => {
        if (typeof message.data !== 'string') return;
        const frame = JSON.parse(message.data) as AgentFrame;
        if (frame.type === 'history') this.panel.connected(frame.client_id);
        else this.panel.frame(frame);
      };
      socket.onclose = (closed) => {
        if (this.#socket !== socket) return;
        this.panel.connected(null);
        if (!REFUSED.has(closed.code)) this.#retry(room, signal);
      };
      const { entries, last } = await conversationOf(this.#client, room, signal);
      this.panel.reset(entries, last);
    } catch {
      this.#retry(room, signal);
    } finally {
      const held = this.#held ?? [];
      this.#held = null;
      for (const entry of held) this.panel.conversation(entry);
    }
  }

  /** Opens the room's socket again after a wait, unless the page left the room meanwhile. */
  #retry(room: string, signal: AbortSignal): void {
    if (signal.aborted) return;
    setTimeout(() => {
      if (this.#room === room && !signal.aborted) void this.#open(room, signal);
    }, RETRY_MS);
  }

  #send(frame: object): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(frame));
    return true;
  }
}
