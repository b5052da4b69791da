/**
 * @module mcp-tool
 * What one agents' tool is: a description, an input schema built from the registries at each
 * listing, and the call. Every tool is a row of the one record in mcp-tools.ts, which the
 * compiler checks against this shape, so a tool missing a part does not compile.
 */
import type { HostContext } from '../host-context.ts';
import type { SpecimenViewDeps } from '../registry/specimen-views.ts';
import type { PublishDeps } from '../published/publish-file.ts';
import type { RoomRequestDeps } from '../rooms/service/room-request.ts';

/** A JSON Schema as MCP lists it. */
export type ToolSchema = Record<string, unknown>;

/** A tool call's arguments, as the client sent them (each tool checks its own). */
export type ToolArgs = Record<string, unknown>;

/** What the tools read from their host. */
export type ToolDeps = RoomRequestDeps &
  PublishDeps &
  SpecimenViewDeps &
  Pick<HostContext, 'catalog' | 'resultIds' | 'rooms' | 'scenes' | 'snapshots' | 'staticInputs' | 'annotations' | 'jobs' | 'delivery' | 'pictures'> &
  Pick<HostContext, 'history' | 'presence' | 'editing' | 'remotes'>;

/** The tools a headset runs (the room's oldest agent socket), as the table's rows reach them. */
export type HeadsetToolName = 'load_specimen' | 'set_active_specimen' | 'remove_specimen' | 'set_room_scene' | 'set_display_param' | 'capture_viewport';

/**
 * Where a headset tool call goes: the agent sockets of the room (core/agent/). It answers the
 * executing headset's result, or for `capture_viewport` the screenshot it sent.
 */
export interface HeadsetCalls {
  call(roomId: string, name: HeadsetToolName, args: Record<string, unknown>): Promise<unknown>;
}

/** What a tool call needs: the host's parts it reads and the host's base URL for links. */
export interface ToolCallContext {
  ctx: ToolDeps;
  /** e.g. `http://127.0.0.1:8000` */
  baseUrl: string;
  /** The room's headsets, when the host has agent sockets (absent: a headset tool answers that none is there). */
  headsets?: HeadsetCalls;
}

/** The schema members several tools share, built once per listing (tool-schemas.ts). */
export interface ToolSchemaParts {
  /** `specimen`, `function` and `params`: every id and name, every parameter schema. */
  target: { specimen: ToolSchema; function: ToolSchema; params: ToolSchema };
  /** `room`: a room id, absent for the default room. */
  room: ToolSchema;
}

export interface McpTool {
  /** What the tool does, as the agent reads it when choosing one. */
  description: string;
  /** Its input schema (an object schema), from the shared parts of this listing. */
  input(parts: ToolSchemaParts): ToolSchema;
  /** Runs it; throws what the routes throw (catalogued host errors). Answers a JSON value. */
  call(call: ToolCallContext, args: ToolArgs): Promise<unknown>;
  // A picture answers a ToolImage (sent as image content); anything else is sent as JSON text.
}

/** A tool's answer that is a picture: sent as MCP image content (base64), `about` beside it as text. */
export class ToolImage {
  constructor(
    readonly bytes: Uint8Array,
    readonly about: Record<string, unknown>,
    readonly mime: 'image/png' | 'image/jpeg' = 'image/png',
  ) {}
}
