/**
 * @module agent-tools
 * The room agent's tools: the very rows of the MCP tool table (mcp/mcp-tools.ts), headset tools
 * included, so an agent in a room and an agent over `/mcp` have the same tools with the same
 * checks. A call runs in the host as the user whose turn it is (its changes carry that `by`,
 * and a room that user may not write refuses it as the HTTP routes would); a tool that takes a
 * room acts in the conversation's room unless it names another. Whatever a tool answers, or
 * refuses, goes back to the model as the tool's result: a picture as an image, anything else as
 * JSON text. The call acts for its person exactly as their own HTTP request would: what it names
 * deep below (a room's published specimen, an input) is checked where it is resolved, so a room's
 * specimen they may not read is not found, whichever room the conversation is in.
 *
 * The tools are offered to the model in fewer bytes than the MCP listing, since every request
 * to the provider carries them again. The parameter schemas of every function and dynamic
 * specimen (by far the largest part) are given once, in the first tool that takes `params`; the
 * other tools that take `params` point to that one. A dynamic specimen whose parameter schema is
 * its function's is named in that function's alternative rather than written out again. The host
 * checks a call's parameters against the full schemas whatever the model was shown.
 */
import { bytesOf } from '../envelope/bytes-of.ts';
import { isHostError } from '../errors.ts';
import { runAs, type Acting } from '../events/acting-user.ts';
import type { Want } from '../people/room-access.ts';
import type { Identity } from '../people/users.ts';
import type { AgentMember } from './agent-member.ts';
import { ToolImage, type HeadsetCalls, type ToolDeps } from '../mcp/mcp-tool.ts';
import { callTool, isToolName, listTools, TOOL_NAMES, toolArguments, type ToolName } from '../mcp/mcp-tools.ts';
import { TOOL_ROOMS } from '../mcp/tool-rooms.ts';
import { asRoomData } from './room-data.ts';
import type { ModelPart, ModelTool, ModelToolCall, ModelToolResult } from './model/agent-model.ts';

type Schema = Record<string, unknown>;

/** The alternatives of a `params` member, with a specimen that repeats its function's schema folded into it. */
function folded(variants: Schema[]): Schema[] {
  const bodyOf = (variant: Schema) => JSON.stringify({ ...variant, title: undefined });
  const kept = new Map<string, Schema>();
  for (const variant of variants) {
    const body = bodyOf(variant);
    const same = kept.get(body);
    if (same) same.title = `${String(same.title)}; ${String(variant.title)}`;
    else kept.set(body, { ...variant });
  }
  return [...kept.values()];
}

function paramsOf(tool: ModelTool): Schema | null {
  const params = (tool.inputSchema.properties as Record<string, Schema> | undefined)?.params;
  return params && Array.isArray(params.anyOf) ? params : null;
}

function withParams(tool: ModelTool, params: Schema): ModelTool {
  const properties = tool.inputSchema.properties as Record<string, Schema>;
  return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...properties, params } } };
}

export function compactTools(tools: readonly ModelTool[]): ModelTool[] {
  let holder: string | null = null;
  return tools.map((tool) => {
    const params = paramsOf(tool);
    if (!params) return tool;
    if (holder === null) {
      holder = tool.name;
      return withParams(tool, { ...params, anyOf: folded(params.anyOf as Schema[]) });
    }
    const { anyOf: _given, ...rest } = params;
    return withParams(tool, {
      ...rest,
      description: `Parameter values by name; absent ones take their defaults. The schema of each function's and specimen's is in ${holder}'s params.`,
    });
  });
}

/** Whether `who` may `want` the room (null), or why not; a fault on the way (the access store away) is thrown. */
export type RoomRight = (roomId: string, who: Identity | null, want: Want) => Promise<string | null>;

/** Who a turn is, for the tools it makes the agent call: who its socket is and the host's address it reached. */
export type TurnAuthor = Pick<AgentMember, 'identity' | 'baseUrl'>;

export interface AgentToolDeps {
  ctx: ToolDeps;
  headsets: HeadsetCalls;
  /** How work done for `identity` acts: its name, and what each room lets it do (as its HTTP requests would). */
  acting(identity: Identity | null): Acting;
  /** A tool failed for a reason of the host's own (logged; the model hears only that it failed). */
  fault(tool: string, error: unknown): void;
}

function textPart(value: unknown): ModelPart {
  return { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
}

/** A tool's answer as the model reads it: data between the markers (room-data.ts), never instructions. */
function dataPart(value: unknown): ModelPart {
  return { type: 'text', text: asRoomData(JSON.stringify(value ?? null)) };
}

export class AgentTools {
  #deps: AgentToolDeps;

  constructor(deps: AgentToolDeps) {
    this.#deps = deps;
  }

  /** The tools as the model is offered them, built from today's registries, each schema written once. */
  list(): ModelTool[] {
    return compactTools(listTools(this.#deps.ctx).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema })));
  }

  /** Runs the model's call in room `roomId` for `author`; never throws: a refusal is the result. */
  async run(roomId: string, author: TurnAuthor, call: ModelToolCall): Promise<ModelToolResult> {
    const answer = (parts: ModelPart[], isError = false): ModelToolResult => ({ id: call.id, name: call.name, parts, isError });
    if (!isToolName(call.name)) return answer([textPart(`no tool '${call.name}' (tools: ${TOOL_NAMES.join(', ')})`)], true);
    const args = { ...call.args };
    const roomless = args.room === undefined || args.room === null || args.room === '';
    if (roomless && Object.hasOwn(toolArguments(call.name) ?? {}, 'room')) args.room = roomId;
    const want = TOOL_ROOMS[call.name];
    const acting = this.#deps.acting(author.identity);
    try {
      const context = { ctx: this.#deps.ctx, baseUrl: author.baseUrl, headsets: this.#deps.headsets };
      // The call runs as its person's own request would: the room it names is checked first, and
      // whatever it names below (a room's published specimen, an input) is checked where it is
      // resolved, so a specimen of a room they may not read is not found, whichever room this is.
      const value = await runAs(acting, async () => {
        if (want && typeof args.room === 'string') await acting.check?.(args.room, want);
        return callTool(context, call.name as ToolName, args);
      });
      // The picture is seen, not copied: a screenshot is megabytes.
      if (value instanceof ToolImage) return answer([{ type: 'image', mime: value.mime, data: bytesOf(value.bytes) }, dataPart(value.about)]);
      return answer([dataPart(value)]);
    } catch (error) {
      if (isHostError(error)) return answer([textPart(error.message)], true);
      this.#deps.fault(call.name, error);
      return answer([textPart(`tool '${call.name}' failed: internal error`)], true);
    }
  }
}
