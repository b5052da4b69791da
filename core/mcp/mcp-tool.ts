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
  Pick<HostContext, 'history' | 'presence'>;

/** What a tool call needs: the host's parts it reads and the host's base URL for links. */
export interface ToolCallContext {
  ctx: ToolDeps;
  /** e.g. `http://127.0.0.1:8000` */
  baseUrl: string;
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

/** A tool's answer that is a picture: sent as MCP image content (base64 PNG), `about` beside it as text. */
export class ToolImage {
  constructor(
    readonly png: Uint8Array,
    readonly about: Record<string, unknown>,
  ) {}
}
