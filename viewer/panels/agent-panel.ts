/**
 * @module agent-panel
 * The inspector's "Agent" section: the room's conversation with its agent beside the room, and a
 * box to say a turn. The transcript is the room's log (read when the page joins, then kept by the
 * room's `conversation` events, each once by its seq), so it shows what the log holds whoever
 * spoke (a headset, another page, a notebook); the reply being spoken streams in below it from
 * the agent socket and gives way to the log's entry once recorded. The socket is handed in by
 * the page's room side (room/agent-link.ts). The page never runs headset tools: one sent to it as
 * executor is answered that it does not.
 */
import type { AgentFrame, ConversationEntry } from '../../core/wire/agent-types.ts';
import { h, replaceChildren } from '../dom.ts';
import './agent-panel.css';

export interface AgentPanelHooks {
  /** Sends a frame on the room's agent socket; false when it is not open. */
  send(frame: object): boolean;
}

/** Lines kept in the list (a joining socket's history is 200 entries). */
const MAX_LINES = 200;

export class AgentPanel {
  readonly element: HTMLElement;
  readonly #hooks: AgentPanelHooks;
  readonly #list = h('ol', { class: 'agent-transcript', 'data-testid': 'agent-transcript', 'aria-live': 'polite' });
  readonly #live = h('p', { class: 'agent-live', 'data-testid': 'agent-live', hidden: true });
  readonly #status = h('p', { class: 'agent-status', 'data-testid': 'agent-status' });
  readonly #input = h('input', {
    type: 'text',
    class: 'agent-input',
    'data-testid': 'agent-input',
    placeholder: 'Say something to the agent',
    'aria-label': 'A turn',
  });
  #lastSeq = 0;
  #clientId: number | null = null;

  constructor(hooks: AgentPanelHooks) {
    this.#hooks = hooks;
    const form = h(
      'form',
      { class: 'agent-form', onsubmit: (event: Event) => this.#submit(event) },
      this.#input,
      h('button', { type: 'submit', 'data-testid': 'agent-send' }, 'Send'),
    );
    const controls = h(
      'div',
      { class: 'agent-controls' },
      h('button', { type: 'button', 'data-testid': 'agent-interrupt', onclick: () => void hooks.send({ type: 'interrupt' }) }, 'Stop'),
      h('button', { type: 'button', 'data-testid': 'agent-new', onclick: () => void hooks.send({ type: 'end_conversation' }) }, 'New'),
    );
    this.element = h(
      'section',
      { class: 'section agent', 'data-testid': 'agent-panel' },
      h('div', { class: 'section-head' }, h('h3', {}, 'Agent')),
      this.#list,
      this.#live,
      form,
      controls,
      this.#status,
    );
  }

  /** The lines shown, `role: text` (`by`: who the line credits, a person's name), oldest first. */
  get lines(): { role: string; by: string; text: string }[] {
    const read = (li: Element, name: string) => li.getAttribute(name) ?? '';
    return [...this.#list.children].map((li) => ({ role: read(li, 'data-role'), by: read(li, 'data-by'), text: read(li, 'data-text') }));
  }

  /** The conversation as the room's log holds it (its entries since the last end), up to `lastSeq`. */
  reset(entries: readonly ConversationEntry[], lastSeq: number): void {
    replaceChildren(this.#list);
    this.#lastSeq = 0;
    for (const entry of entries) this.conversation(entry);
    this.#lastSeq = Math.max(this.#lastSeq, lastSeq);
  }

  /** A conversation entry of the room's log (an event, or read at joining): shown once, in seq order. */
  conversation(entry: ConversationEntry): void {
    if (entry.seq !== undefined) {
      if (entry.seq <= this.#lastSeq) return;
      this.#lastSeq = entry.seq;
    }
    if (entry.op === 'end') return replaceChildren(this.#list);
    if (!entry.role || entry.text === undefined) return;
    if (entry.role === 'agent') {
      // The reply is over: what was said of it while it ran (thinking, a tool in use) is over too.
      this.#endLive();
      this.#status.textContent = '';
    }
    const who = entry.role === 'agent' ? 'Agent' : (entry.name ?? entry.by);
    const by = entry.name ?? entry.by;
    const line = h('li', { class: `agent-line ${entry.role}`, 'data-role': entry.role, 'data-by': by, 'data-text': entry.text });
    line.append(h('b', {}, who));
    line.append(' ', entry.text);
    this.#list.append(line);
    while (this.#list.children.length > MAX_LINES) this.#list.firstElementChild?.remove();
  }

  /** The socket opened (with this page's client id) or dropped (null). */
  connected(clientId: number | null): void {
    this.#clientId = clientId;
    this.#status.textContent = clientId === null ? 'Not connected to the room’s agent.' : '';
  }

  /** A frame of the room's agent socket. */
  frame(frame: AgentFrame): void {
    switch (frame.type) {
      case 'agent_text':
        this.#live.hidden = false;
        this.#live.textContent = (this.#live.textContent || 'Agent: ') + frame.text;
        return;
      case 'agent_text_done':
        this.#status.textContent = '';
        return;
      case 'status':
        this.#status.textContent = frame.text === 'thinking' ? 'The agent is thinking…' : frame.text;
        if (frame.text === 'interrupted') this.#endLive();
        return;
      case 'error':
        this.#status.textContent = frame.message;
        return;
      case 'turn_queued':
        this.#status.textContent = `Your turn is queued (${frame.position} ahead).`;
        return;
      case 'tool_call':
        if (frame.executor !== this.#clientId) return;
        const result = { error: `the viewer page does not run ${frame.name}` };
        this.#hooks.send({ type: 'tool_result', request_id: frame.request_id, result });
        return;
      default:
        return;
    }
  }

  #endLive(): void {
    this.#live.hidden = true;
    this.#live.textContent = '';
  }

  #submit(event: Event): void {
    event.preventDefault();
    const text = this.#input.value.trim();
    if (!text) return;
    if (!this.#hooks.send({ type: 'text', text })) {
      this.#status.textContent = 'Not connected to the room’s agent.';
      return;
    }
    this.#input.value = '';
  }
}
