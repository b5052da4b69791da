/**
 * @module agent-tools
 * The room agent's tools: the very rows of the MCP tool table (mcp/mcp-tools.ts), headset tools
 * included, so an agent in a room and an agent over `/mcp` have the same tools with the same
 * checks. A call runs in the host as the user whose turn it is (its changes carry that `by`,
 * and a room that user may not write refuses it as the HTTP routes would); a tool that takes a
 * room acts in the conversation's room unless it names another. Whatever a tool answers, or
 * refuses, goes back to the model as the tool's result: a picture as an image, anything else as
 * JSON text.
 */
import { bytesOf } from '../envelope/bytes-of.ts';
import { isHostError } from '../errors.ts';
import { asActor } from '../history/request-actor.ts';
import { ANONYMOUS } from '../people/request-user.ts';
import type { Want } from '../people/room-access.ts';
import type { Identity } from '../people/users.ts';
import { ToolImage, type HeadsetCalls, type ToolDeps } from '../mcp/mcp-tool.ts';
import { callTool, isToolName, listTools, MCP_TOOLS, TOOL_NAMES } from '../mcp/mcp-tools.ts';
import { toolRoomWant } from '../mcp/tool-rooms.ts';
import type { ModelPart, ModelTool, ModelToolCall, ModelToolResult } from './model/agent-model.ts';

/** Whether `who` may `want` the room (null), or why not; a fault on the way (the access store away) is thrown. */
export type RoomRight = (roomId: string, who: Identity | null, want: Want) => Promise<string | null>;

/** Who a turn is, for the tools it makes the agent call. */
export interface TurnAuthor {
  identity: Identity | null;
  baseUrl: string;
}

export interface AgentToolDeps {
  ctx: ToolDeps;
  headsets: HeadsetCalls;
  right: RoomRight;
  /** A tool failed for a reason of the host's own (logged; the model hears only that it failed). */
  fault(tool: string, error: unknown): void;
}

/** Whether tool `name`'s schema takes a room. */
function takesRoom(name: string): boolean {
  const schema = MCP_TOOLS[name as keyof typeof MCP_TOOLS].input({ target: { specimen: {}, function: {}, params: {} }, room: {} });
  return Object.hasOwn((schema.properties as Record<string, unknown> | undefined) ?? {}, 'room');
}

function textPart(value: unknown): ModelPart {
  return { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
}

export class AgentTools {
  #deps: AgentToolDeps;

  constructor(deps: AgentToolDeps) {
    this.#deps = deps;
  }

  /** The tools as the model is offered them, built from today's registries. */
  list(): ModelTool[] {
    return listTools(this.#deps.ctx).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
  }

  /** Runs the model's call in room `roomId` for `author`; never throws: a refusal is the result. */
  async run(roomId: string, author: TurnAuthor, call: ModelToolCall): Promise<ModelToolResult> {
    const answer = (parts: ModelPart[], isError = false): ModelToolResult => ({ id: call.id, name: call.name, parts, isError });
    if (!isToolName(call.name)) return answer([textPart(`no tool '${call.name}' (tools: ${TOOL_NAMES.join(', ')})`)], true);
    const args = { ...call.args };
    if (takesRoom(call.name) && (args.room === undefined || args.room === null || args.room === '')) args.room = roomId;
    const want = toolRoomWant(call.name);
    if (want && typeof args.room === 'string') {
      const refusal = await this.#deps.right(args.room, author.identity, want);
      if (refusal) return answer([textPart(refusal)], true);
    }
    try {
      const context = { ctx: this.#deps.ctx, baseUrl: author.baseUrl, headsets: this.#deps.headsets };
      const value = await asActor(author.identity?.name ?? ANONYMOUS, () => callTool(context, call.name as keyof typeof MCP_TOOLS, args));
      // The picture is seen, not copied: a screenshot is megabytes.
      if (value instanceof ToolImage) return answer([{ type: 'image', mime: value.mime, data: bytesOf(value.bytes) }, textPart(value.about)]);
      return answer([textPart(value ?? null)]);
    } catch (error) {
      if (isHostError(error)) return answer([textPart(error.message)], true);
      this.#deps.fault(call.name, error);
      return answer([textPart(`tool '${call.name}' failed: internal error`)], true);
    }
  }
}
