/**
 * @module agent-room
 * One room's agent, on the host that holds it: the room's sockets in the order they joined (the
 * oldest is the executor of headset tools), its one conversation, the headset calls waiting for
 * an answer, and the speaker floor. Everything the conversation says goes to every socket. A
 * frame reaches the room already read and, where it writes, allowed (agent-socket.ts). The room
 * holds one of the host's conversation slots only while a turn runs or waits: an idle room gives
 * it back, and takes one again with its next turn. At most `--agent-max-queued` turns wait; a
 * turn past that is refused at once, and the model is not asked.
 */
import { faultWords, hostFrames, type ClientFrame } from './agent-frames.ts';
import type { AgentFigures, TurnOutcome } from './agent-figures.ts';
import type { AgentMember } from './agent-member.ts';
import type { AgentTools, RoomRight } from './agent-tools.ts';
import type { BinaryFrame } from './binary-frame.ts';
import { AGENT_ACTOR, type ConversationChange, type ConversationRecord, type Transcript } from '../history/conversation-record.ts';
import { Conversation } from './conversation.ts';
import type { AgentModel } from './model/agent-model.ts';
import { ToolWaits } from './tool-waits.ts';
import { createHostError } from '../errors.ts';
import type { RoomVoice, VoiceHost } from './voice/room-voice.ts';

/** The words a `text` gets on a host with no model. */
export const NO_MODEL = 'no agent model is configured on this host';

export interface AgentRoomDeps {
  model: AgentModel | null;
  tools: AgentTools;
  log: ConversationRecord;
  figures: AgentFigures;
  turnTimeoutMs: number;
  /** Most turns that may wait in the room (`--agent-max-queued`). */
  maxQueued: number;
  /** Most bytes of the conversation one request to the model carries (`--agent-context-bytes`). */
  contextBytes: number;
  /** Takes one of the host's conversation slots for this room; false when they are all taken. */
  openConversation(): boolean;
  /** Gives it back. */
  closeConversation(): void;
  /** The words for a refused `openConversation`. */
  fullMessage: string;
  /** The room may have nothing left to keep it in memory (a socket left, a turn or a call ended). */
  maybeIdle(room: AgentRoom): void;
  /** Whether `who` may `want` the room (null), or why not (a fault is thrown). */
  right: RoomRight;
  /** The speaker floor and speech of this room, or null without voice services. */
  voice(room: AgentRoom): RoomVoice | null;
  fault(message: string, error: unknown): void;
}

export class AgentRoom implements VoiceHost {
  #deps: AgentRoomDeps;
  #transcript: Transcript;
  #members = new Map<number, AgentMember>();
  #conversation: Conversation | null = null;
  /** Whether this room holds one of the host's conversation slots (only while a turn runs or waits). */
  #slot = false;
  readonly waits = new ToolWaits();
  /** A screenshot sent without a capture asking for it: shown to the model with the next turn. */
  #attached: Buffer | null = null;
  readonly voice: RoomVoice | null;

  constructor(readonly id: string, transcript: Transcript, deps: AgentRoomDeps) {
    this.#transcript = transcript;
    this.#deps = deps;
    this.voice = deps.voice(this);
  }

  /** Whether the room holds nothing worth keeping in memory: no socket, no turn, no call waiting. */
  get idle(): boolean {
    return this.#members.size === 0 && !this.#conversation?.busy && this.waits.size === 0 && !this.voice?.busy;
  }

  get members(): readonly AgentMember[] {
    return [...this.#members.values()];
  }

  /** The socket that runs headset tools: the oldest of the room (the smallest client id). */
  executor(): AgentMember | null {
    let oldest: AgentMember | null = null;
    for (const member of this.#members.values()) if (!oldest || member.clientId < oldest.clientId) oldest = member;
    return oldest;
  }

  broadcast(frame: object): void {
    for (const member of this.#members.values()) member.send(frame);
  }

  broadcastBytes(data: Buffer): void {
    for (const member of this.#members.values()) member.sendBytes(data);
  }

  /** A socket joins: it hears the conversation so far and its client id first. */
  join(member: AgentMember): void {
    member.send(hostFrames.history(this.#transcript.entries, member.clientId));
    this.#members.set(member.clientId, member);
  }

  /** A socket left: the calls it owed fail now, and the floor it held is let go. */
  leave(clientId: number): void {
    const member = this.#members.get(clientId);
    if (!member) return;
    this.#members.delete(clientId);
    this.waits.left(clientId);
    this.voice?.left(member);
    this.#closeIfIdle();
    this.#deps.maybeIdle(this);
  }

  frame(member: AgentMember, frame: ClientFrame): void {
    switch (frame.type) {
      case 'text':
        return this.turn(member, frame.text);
      case 'tool_result': {
        const problem = this.waits.result(member.clientId, frame.request_id, frame.result);
        if (problem) member.send(hostFrames.error(problem));
        return;
      }
      case 'interrupt':
        this.voice?.silence(true);
        this.#conversation?.interrupt();
        return;
      case 'end_conversation':
        return this.#end(member);
      case 'bind':
      case 'unbind':
        if (!this.voice) return member.send(hostFrames.error('voice is not enabled on this server'));
        return frame.type === 'bind' ? this.voice.bind(member) : this.voice.unbind(member);
      case 'screenshot_meta':
        return;
    }
  }

  binary(member: AgentMember, frame: BinaryFrame): void {
    const kind = frame.header.kind;
    if (kind === 'screenshot') {
      if (!this.waits.screenshot(member.clientId, frame.payload)) this.#attached = frame.payload;
      return;
    }
    if (kind === 'audio') {
      if (!this.voice) return member.send(hostFrames.error('voice is not enabled on this server'));
      return this.voice.audio(member, frame);
    }
    member.send(hostFrames.error(`unknown binary kind '${String(kind).slice(0, 64)}'`));
  }

  /** Stops the running turn (a barge-in: its speech was silenced first). */
  interruptTurn(): void {
    this.#conversation?.interrupt();
  }

  fault(message: string, error: unknown): void {
    this.#deps.fault(`room '${this.id}': ${message}`, error);
  }

  /** A turn from `member` (typed, or spoken and transcribed). */
  turn(member: AgentMember, text: string): void {
    if (!this.#deps.model) return member.send(hostFrames.error(NO_MODEL));
    const conversation = this.#conversation ?? this.#open(this.#deps.model);
    if (conversation.waiting >= this.#deps.maxQueued) {
      const most = this.#deps.maxQueued;
      const words = `at most ${most} turns wait in a room (--agent-max-queued): this one is refused; send it again once the agent has answered`;
      return member.send(hostFrames.error(words));
    }
    if (!this.#slot) {
      if (!this.#deps.openConversation()) return member.send(hostFrames.error(this.#deps.fullMessage));
      this.#slot = true;
    }
    this.#transcript.add({ role: 'user', text });
    const { name, user } = member.peer;
    this.#record({ role: 'user', text, ...(name !== user ? { name } : {}) }, user);
    const image = this.#attached;
    this.#attached = null;
    const position = conversation.submit({ text, image, author: { identity: member.identity, baseUrl: member.baseUrl } });
    if (position > 0) member.send(hostFrames.turnQueued(position));
  }

  /**
   * The socket that runs a headset call: the oldest whose person may write the room (a socket that
   * may only read could not answer it); null when none may.
   */
  async #writer(): Promise<AgentMember | null> {
    const oldestFirst = [...this.#members.values()].sort((a, b) => a.clientId - b.clientId);
    for (const member of oldestFirst) {
      if (member.readOnly) continue;
      if ((await this.#deps.right(this.id, member.identity, 'write')) === null && this.#members.has(member.clientId)) return member;
    }
    return null;
  }

  /** A headset tool call: to every socket, run by the oldest that may write; answers its result. */
  async callHeadset(name: string, args: Record<string, unknown>): Promise<unknown> {
    let executor = await this.#writer();
    while (executor && !this.#members.has(executor.clientId)) executor = await this.#writer(); // it left as its rights were read
    if (!executor) throw createHostError(this.#members.size === 0 ? 'SPC_ERR_AGENT_NO_HEADSET' : 'SPC_ERR_AGENT_NO_WRITER', this.id);
    const { requestId, answer } = this.waits.start(name, executor.clientId);
    this.broadcast(hostFrames.toolCall(requestId, name, args, executor.clientId));
    void answer.catch(() => {}).finally(() => this.#deps.maybeIdle(this));
    return answer;
  }

  #open(model: AgentModel): Conversation {
    const conversation: Conversation = new Conversation(
      {
        roomId: this.id,
        model,
        tools: this.#deps.tools,
        broadcast: (frame) => this.broadcast(frame),
        spoken: (delta) => this.voice?.spoken(delta),
        figures: this.#deps.figures,
        timeoutMs: this.#deps.turnTimeoutMs,
        contextBytes: this.#deps.contextBytes,
        ended: (outcome, text, problem) => this.#turnEnded(conversation, outcome, text, problem),
        fault: (error) => this.#deps.fault(`room '${this.id}': a turn failed`, error),
      },
      this.#transcript.entries,
    );
    this.#conversation = conversation;
    return conversation;
  }

  /** A turn of `conversation` ended; a conversation ended meanwhile records nothing more. */
  #turnEnded(conversation: Conversation, outcome: TurnOutcome, text: string, problem: string | null): void {
    this.#deps.figures.turn(outcome);
    if (text && conversation === this.#conversation) {
      this.#transcript.add({ role: 'agent', text });
      this.#record({ role: 'agent', text, ...(outcome === 'interrupted' ? { interrupted: true } : {}) }, AGENT_ACTOR);
    }
    if (outcome === 'interrupted') {
      this.broadcast(hostFrames.status('interrupted'));
      this.voice?.silence(true);
    } else {
      if (problem) this.broadcast(hostFrames.error(problem));
      this.broadcast(hostFrames.agentTextDone());
      this.voice?.replyDone();
    }
    queueMicrotask(() => {
      if (!conversation.busy) this.#giveSlot();
      this.#closeIfIdle();
      this.#deps.maybeIdle(this);
    });
  }

  /**
   * A change someone else wrote into the room's conversation (a replay): the transcript follows
   * it, and the model's conversation starts again from the transcript at the next turn.
   */
  written(change: ConversationChange): void {
    this.#transcript.fold(change as unknown as Record<string, unknown>);
    if (this.#conversation && !this.#conversation.busy) this.#release();
  }

  #end(member: AgentMember): void {
    this.#conversation?.end();
    this.#transcript.clear();
    this.#attached = null;
    this.#record({ op: 'end' }, member.peer.user);
    this.#release();
  }

  /**
   * Writes `change` into the room's log. A log that cannot take it (Redis away or stalled: a 503)
   * costs the room that entry, not the host: the fault is logged and every socket hears an
   * `error` saying so, and the conversation goes on.
   */
  #record(change: ConversationChange, by: string): void {
    this.#deps.log.write(this.id, change, by, this).catch((error: unknown) => {
      this.fault('the conversation could not be recorded', error);
      this.broadcast(hostFrames.error(faultWords('this turn could not be recorded in the room’s log', error)));
    });
  }

  /** Lets the conversation go once nobody is in the room and no turn runs (the log keeps it). */
  #closeIfIdle(): void {
    if (this.#members.size === 0 && this.#conversation && !this.#conversation.busy) this.#release();
  }

  #release(): void {
    this.#conversation = null;
    this.#giveSlot();
  }

  #giveSlot(): void {
    if (!this.#slot) return;
    this.#slot = false;
    this.#deps.closeConversation();
  }

  /** The host is closing or the room is dropped: turns stop, calls fail. */
  close(): void {
    this.#conversation?.end();
    this.#release();
    this.waits.failAll(createHostError('SPC_ERR_HOST_CLOSING'));
    this.voice?.close();
  }
}
