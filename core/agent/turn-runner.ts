/**
 * @module turn-runner
 * One turn of a room's conversation against its model: the user's words (and a screenshot a
 * headset attached) go in; the model's reply streams out to every socket as `agent_text` pieces;
 * each tool it asks for is announced (`status`), run, and its answer handed back, until it
 * answers without asking for one. What a turn costs is bounded: at most 24 steps, at most 32 tool
 * calls run in one step (the rest are answered as not run), a call whose arguments are past
 * 256 KiB or did not parse is refused without running, a refused call is kept in the conversation
 * without its arguments, and each request carries at most the context's bytes of the
 * conversation (context-bound.ts).
 */
import { HEADSET_TOOLS } from '../mcp/headset-tools.ts';
import { hostFrames } from './agent-frames.ts';
import type { AgentFigures } from './agent-figures.ts';
import type { TurnAuthor } from './agent-tools.ts';
import { DATA_RULE, otherRoomNotice, quotedRoom } from './room-data.ts';
import type { AgentModel, ModelMessage, ModelPart, ModelTool, ModelToolCall, ModelToolResult } from './model/agent-model.ts';
import { fitContext } from './context-bound.ts';

const HEADSET_TOOL_NAMES = new Set(Object.keys(HEADSET_TOOLS));

/** Most model steps in one turn (each one a reply that may ask for tools). */
export const MAX_STEPS = 24;
/** Most tool calls run in one step; the model's further calls are answered as not run. */
export const MAX_STEP_CALLS = 32;
/** Most bytes of arguments (as JSON) one tool call may carry. */
export const MAX_CALL_ARGS_BYTES = 256 * 1024;

/** What the agent is told of itself and its room (whose id is quoted: it is data, whatever it says). */
export function systemPrompt(roomId: string): string {
  return (
    `You are the agent of one room of a vitrine host; the room's id, quoted as a JSON string, is ${quotedRoom(roomId)}. ` +
    'People in the room (in VR headsets, on web pages, in notebooks) talk to you ' +
    'together, by text or voice, and see everything you say. You can list, compute and publish specimens (meshes, volumes, point clouds, ' +
    'images), change what the room shows and how, and drive the headsets: load_specimen loads a specimen (a catalog id, or the load_id ' +
    'compute answers) into every headset, and capture_viewport shows you what a headset sees. Keep spoken answers short. ' +
    'Act in this room unless the person speaking names another. ' +
    DATA_RULE
  );
}

/** A turn as the queue holds it. */
export interface Turn {
  text: string;
  /** A screenshot a headset sent before the turn, shown to the model with it. */
  image: Buffer | null;
  author: TurnAuthor;
}

export interface TurnDeps {
  roomId: string;
  model: AgentModel;
  tools: { list(): ModelTool[]; run(roomId: string, author: TurnAuthor, call: ModelToolCall): Promise<ModelToolResult> };
  /** To every socket of the room. */
  broadcast(frame: object): void;
  /** Each piece of reply text (the speech of a reply reads it). */
  spoken(delta: string): void;
  figures: AgentFigures;
  /** Most bytes of the conversation one request carries. */
  contextBytes: number;
  /** Whether turns were already left out of the conversation kept (the model is told so). */
  leftOut(): boolean;
}

/** `work`, or its turn's stop if that comes first (a model or a headset slow to let go holds no one up). */
function orStopped<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function userParts(turn: Turn): ModelPart[] {
  const parts: ModelPart[] = [{ type: 'text', text: turn.text }];
  if (turn.image) parts.push({ type: 'image', mime: 'image/jpeg', data: turn.image });
  return parts;
}

/** Why a call is refused before it runs (its arguments did not parse, or are too large), or null. */
function refusedBeforeRun(call: ModelToolCall, index: number): string | null {
  if (index >= MAX_STEP_CALLS) return `not run: at most ${MAX_STEP_CALLS} tool calls run in one step`;
  if (call.unparsed !== undefined) return `refused: the arguments of ${call.name} are not a JSON object (${call.unparsed})`;
  const bytes = Buffer.byteLength(JSON.stringify(call.args));
  if (bytes > MAX_CALL_ARGS_BYTES) return `refused: the arguments of ${call.name} are ${bytes} bytes, past the ${MAX_CALL_ARGS_BYTES} a tool call may carry`;
  return null;
}

/** The step's calls as the conversation keeps them: a refused call without its arguments. */
function keptCalls(calls: readonly ModelToolCall[], results: readonly ModelToolResult[]): ModelToolCall[] {
  return calls.map((call, i) => (results[i]?.isError ? { id: call.id, name: call.name, args: {} } : call));
}

/**
 * Runs `turn`, adding its messages to `messages`; answers the reply's text. Throws what the model
 * throws (an abort, a refusal); the conversation then keeps the question and what was said of the
 * answer, in place of the turn's messages.
 */
export async function runTurn(deps: TurnDeps, messages: ModelMessage[], turn: Turn, signal: AbortSignal, said: { text: string }): Promise<string> {
  const before = messages.length;
  deps.broadcast(hostFrames.status('thinking'));
  messages.push({ role: 'user', parts: userParts(turn) });
  const tools = deps.tools.list();
  try {
    for (let step = 0; step < MAX_STEPS; step++) {
      const started = performance.now();
      const reply = await orStopped(deps.model.step({
        system: systemPrompt(deps.roomId),
        messages: fitContext(messages, before, deps.contextBytes, deps.leftOut()),
        tools,
        signal,
        onText: (delta) => {
          if (delta === '' || signal.aborted) return;
          said.text += delta;
          deps.broadcast(hostFrames.agentText(delta));
          deps.spoken(delta);
        },
      }), signal);
      deps.figures.step((performance.now() - started) / 1000, reply.usage.input, reply.usage.output);
      deps.figures.sent(deps.roomId, reply.bytesSent);
      if (reply.calls.length === 0) {
        messages.push({ role: 'assistant', text: reply.text, calls: [] });
        return said.text;
      }
      const results: ModelToolResult[] = [];
      for (const [i, call] of reply.calls.entries()) {
        signal.throwIfAborted();
        const refusal = refusedBeforeRun(call, i);
        if (refusal) {
          results.push({ id: call.id, name: call.name, parts: [{ type: 'text', text: refusal }], isError: true });
          continue;
        }
        deps.broadcast(hostFrames.status(`Using the ${call.name} tool...`));
        const elsewhere = otherRoomNotice(deps.roomId, call);
        if (elsewhere) deps.broadcast(hostFrames.status(elsewhere));
        const result = await orStopped(deps.tools.run(deps.roomId, turn.author, call), signal);
        deps.figures.tool(HEADSET_TOOL_NAMES.has(call.name) ? 'headset' : 'host', !result.isError);
        results.push(result);
      }
      messages.push({ role: 'assistant', text: reply.text, calls: keptCalls(reply.calls, results) }, { role: 'tool', results });
    }
    return said.text;
  } catch (error) {
    // The conversation goes on from what people saw: the question, and what was said of the answer.
    messages.splice(before, messages.length - before, { role: 'user', parts: userParts(turn) });
    messages.push({ role: 'assistant', text: said.text || '(no answer: the turn was stopped)', calls: [] });
    throw error;
  }
}
