/**
 * @module tool-rooms
 * Which room each MCP tool reads or writes, so a closed room refuses an agent as it refuses the
 * HTTP routes (the people hook checks them before the call runs). A record keyed by tool name:
 * a new tool does not compile until it says what it does to rooms.
 */
import type { FastifyRequest } from 'fastify';
import type { RoomUse, Want } from '../people/room-access.ts';
import { isToolName, type ToolName } from './mcp-tools.ts';

/** What each tool does to the room it names (null: it names none). */
export const TOOL_ROOMS: Record<ToolName, Want | null> = {
  list_specimens: null,
  describe_specimen: null,
  compute: 'write',
  show_in_room: 'write',
  set_view: 'write',
  get_room: 'read',
  publish_from_upload: null,
  publish_remote: null,
  list_annotations: 'read',
  add_annotation: 'write',
  remove_annotation: 'write',
  start_job: 'write',
  job_status: null,
  cancel_job: null,
  room_image: 'read',
  get_scene: 'read',
  add_layer: 'write',
  update_layer: 'write',
  remove_layer: 'write',
  merge_segments: 'write',
  split_segment: 'write',
  paint_labels: 'write',
  undo_edit: 'write',
  snapshot_room: 'write',
  get_room_log: 'read',
  who_is_here: 'read',
  load_specimen: 'write',
  set_active_specimen: 'write',
  remove_specimen: 'write',
  set_room_scene: 'write',
  set_display_param: 'write',
  // What a headset shows is what the room shows: reading it is reading the room.
  capture_viewport: 'read',
};

type Message = { method?: unknown; params?: { name?: unknown; arguments?: { room?: unknown } } };

function useOf(message: Message, defaultRoom: string): RoomUse | null {
  if (message?.method !== 'tools/call' || typeof message.params?.name !== 'string' || !isToolName(message.params.name)) return null;
  const want = TOOL_ROOMS[message.params.name];
  if (!want) return null;
  const room = message.params.arguments?.room;
  return { room: typeof room === 'string' && room ? room : defaultRoom, want };
}

/** The rooms the tool calls of an MCP request's body use (a batch may hold several). */
export function mcpRoomUses(request: FastifyRequest, defaultRoom: string): RoomUse[] {
  const messages = (Array.isArray(request.body) ? request.body : [request.body]) as Message[];
  return messages.map((message) => useOf(message, defaultRoom)).filter((use): use is RoomUse => use !== null);
}
