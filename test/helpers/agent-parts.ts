/**
 * @module agent-parts
 * The agent's parts in memory, for its unit tests: a model whose every step the test answers by
 * hand (each step waits until the test settles it), a member that keeps the frames it was sent,
 * a conversation record over a room log in memory, and the rooms of one host made of them. No
 * socket, no server, no clock of its own: the tests drive time with vitest's fake timers.
 */
import { AgentFigures } from '../../core/agent/agent-figures.ts';
import type { AgentMember } from '../../core/agent/agent-member.ts';
import { AgentRooms } from '../../core/agent/agent-rooms.ts';
import type { AgentTools } from '../../core/agent/agent-tools.ts';
import type { AgentModel, ModelRequest, ModelStep, ModelToolCall, ModelToolResult } from '../../core/agent/model/agent-model.ts';
import { ConversationRecord } from '../../core/history/conversation-record.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { RoomRecorder } from '../../core/history/room-recorder.ts';

/** One model step the test has yet to settle, with what it was asked. */
export interface PendingStep {
  request: ModelRequest;
  /** Answers the step: text streamed first (each piece), then the calls. */
  reply(text?: string, calls?: ModelToolCall[]): void;
  fail(error: Error): void;
}

/** A model whose steps wait for the test; `steps` holds them in the order they were asked. */
export interface HandModel extends AgentModel {
  steps: PendingStep[];
  /** The next step asked (after those already taken by earlier calls). */
  next(): Promise<PendingStep>;
}

export function handModel(): HandModel {
  const steps: PendingStep[] = [];
  let taken = 0;
  let wake: (() => void) | null = null;
  return {
    name: 'by-hand',
    steps,
    step(request: ModelRequest): Promise<ModelStep> {
      return new Promise<ModelStep>((resolve, reject) => {
        steps.push({
          request: { ...request, messages: structuredClone([...request.messages]) },
          reply: (text = '', calls = []) => {
            if (text) request.onText(text);
            resolve({ text, calls, usage: { input: 1, output: 1 }, bytesSent: JSON.stringify(request.messages).length });
          },
          fail: reject,
        });
        wake?.();
      });
    },
    async next() {
      while (steps.length <= taken) await new Promise<void>((resolve) => (wake = resolve));
      return steps[taken++]!;
    },
  };
}

/** Tools that answer each call by its name from `answers` (an error text when none). */
export function handTools(answers: Record<string, unknown> = {}): AgentTools {
  const run = async (_room: string, _author: unknown, call: ModelToolCall): Promise<ModelToolResult> => {
    const known = Object.hasOwn(answers, call.name);
    const text = known ? JSON.stringify(answers[call.name]) : `no tool '${call.name}'`;
    return { id: call.id, name: call.name, parts: [{ type: 'text', text }], isError: !known };
  };
  return { list: () => [], run } as unknown as AgentTools;
}

/** A member of a room that keeps what it was sent. */
export interface KeptMember extends AgentMember {
  frames: Record<string, unknown>[];
}

export function keptMember(clientId: number, user = 'anonymous'): KeptMember {
  const frames: Record<string, unknown>[] = [];
  return {
    clientId,
    peer: { id: `peer-${clientId}`, name: `p${clientId}`, kind: 'headset', user, since: 0, client_id: clientId } as AgentMember['peer'],
    identity: null,
    readOnly: null,
    baseUrl: 'http://127.0.0.1:1',
    frames,
    // As the wire would carry it: a copy of the frame when sent, not what its objects become later.
    send: (frame) => void frames.push(JSON.parse(JSON.stringify(frame)) as Record<string, unknown>),
    sendBytes: () => {},
  };
}

/** A conversation record over a room log in memory. */
export function memoryConversations(): ConversationRecord {
  return new ConversationRecord(new RoomRecorder(new MemoryRoomLog(3600)), async () => {});
}

/** One host's agent rooms in memory, with `model` and `tools` (and the conversations' record, shared by a service's hosts). */
export function memoryAgentRooms(model: AgentModel | null, tools: AgentTools = handTools(), maxConversations = 4, log = memoryConversations()): AgentRooms {
  return new AgentRooms({
    log,
    figures: new AgentFigures(),
    maxConversations,
    // Every person may write: the rooms' rights are not what these tests are about.
    parts: { model, tools, turnTimeoutMs: 120_000, voice: () => null, fault: () => {}, maxQueued: 8, contextBytes: 1 << 20, right: async () => null },
  });
}
