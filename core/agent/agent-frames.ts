/**
 * @module agent-frames
 * The agent socket's text frames (`WS /ws/agent/{room}`), as the headset client speaks them: every
 * text frame is a JSON object whose `type` is a string. What a client may send is read here and
 * nothing else gets through: a frame that is not JSON, has no `type`, names a type the socket does
 * not take, or lacks what its type needs is answered with the reason, and the socket stays open.
 * Microphone audio travels only in binary frames, so an `audio` text frame is refused by name.
 *
 * A fault of the agent's own path (its room log, Redis, a speech service, a frame's handling) is
 * told in an `error` frame in words that say what failed and, for a fault the host knows (a host
 * error: Redis away is a 503), its status and code, so a client can tell "retry later" from a
 * refusal. An unexpected error is told only as an internal error; its detail goes to the log.
 */
import { isHostError } from '../errors.ts';
import type { AgentFrame, TranscriptEntry } from '../wire/agent-types.ts';

/** A frame a client sends, once read. */
export type ClientFrame =
  | { type: 'text'; text: string }
  | { type: 'tool_result'; request_id: string; result: unknown }
  | { type: 'screenshot_meta' }
  | { type: 'interrupt' }
  | { type: 'end_conversation' }
  | { type: 'bind' }
  | { type: 'unbind' };

/** Every type a client may send. */
const CLIENT_TYPES = new Set<string>(
  ['text', 'tool_result', 'screenshot_meta', 'interrupt', 'end_conversation', 'bind', 'unbind'] satisfies ClientFrame['type'][],
);

/** Types that exist only as binary frames: named when they arrive as text. */
const BINARY_ONLY = new Set(['audio', 'screenshot']);

/** A frame that could not be read: the words the `error` frame carries. */
export class FrameProblem {
  constructor(readonly message: string) {}
}

/** Reads one text frame; a {@link FrameProblem} names what is wrong with it. */
export function readClientFrame(text: string): ClientFrame | FrameProblem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return new FrameProblem(`invalid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return new FrameProblem('a frame must be a JSON object');
  const frame = value as Record<string, unknown>;
  if (!('type' in frame)) return new FrameProblem("frame must have a 'type' key");
  const type = frame.type;
  if (typeof type !== 'string') return new FrameProblem('type must be a string');
  if (BINARY_ONLY.has(type)) return new FrameProblem(`type '${type}' travels only in binary frames`);
  if (!CLIENT_TYPES.has(type)) return new FrameProblem(`unknown frame type '${type.slice(0, 64)}'`);
  if (type === 'text') {
    if (typeof frame.text !== 'string' || frame.text.trim() === '') return new FrameProblem("text frame requires non-empty 'text' field");
    return { type, text: frame.text };
  }
  if (type === 'tool_result') {
    if (typeof frame.request_id !== 'string' || frame.request_id === '') return new FrameProblem("tool_result frame requires a 'request_id' string");
    if (!('result' in frame)) return new FrameProblem("tool_result frame requires 'result' field");
    return { type, request_id: frame.request_id, result: frame.result };
  }
  return { type } as ClientFrame;
}

/** Narrows {@link AgentFrame} to the frame of `type`. */
type FrameOf<T extends AgentFrame['type']> = Extract<AgentFrame, { type: T }>;

/**
 * The frames the host sends, each built in one place so every socket hears the same shape, and
 * typed by the same {@link AgentFrame} union the viewer reads: a field renamed on either side no
 * longer compiles.
 */
export const hostFrames = {
  agentText: (text: string): FrameOf<'agent_text'> => ({ type: 'agent_text', text }),
  agentTextDone: (): FrameOf<'agent_text_done'> => ({ type: 'agent_text_done' }),
  toolCall: (requestId: string, name: string, args: Record<string, unknown>, executor: number): FrameOf<'tool_call'> => ({
    type: 'tool_call',
    request_id: requestId,
    name,
    args,
    executor,
  }),
  status: (text: string): FrameOf<'status'> => ({ type: 'status', text }),
  error: (message: string): FrameOf<'error'> => ({ type: 'error', message }),
  history: (entries: readonly TranscriptEntry[], clientId: number): FrameOf<'history'> => ({ type: 'history', entries: [...entries], client_id: clientId }),
  turnQueued: (position: number): FrameOf<'turn_queued'> => ({ type: 'turn_queued', position }),
  speakerBound: (clientId: number): FrameOf<'speaker_bound'> => ({ type: 'speaker_bound', client_id: clientId }),
  speakerReleased: (): FrameOf<'speaker_released'> => ({ type: 'speaker_released' }),
  transcript: (text: string, clientId: number): FrameOf<'transcript'> => ({ type: 'transcript', text, client_id: clientId, final: true }),
  // `interrupted` says whether speech was cut short (the client stops its player either way).
  agentAudioEnd: (interrupted: boolean): FrameOf<'agent_audio_end'> => ({ type: 'agent_audio_end', interrupted }),
} as const;

/** The `error` frame's words for `error`, met while doing `what`. */
export function faultWords(what: string, error: unknown): string {
  if (isHostError(error)) return `${what}: ${error.message} (${error.statusCode} ${error.code})`;
  return `${what}: internal error`;
}
