/**
 * @module history-tools
 * The agents' tools of a room's history and presence: read the room's log (what changed, by
 * whom, in order) and who is in the room now (names and kinds of client, in the order they
 * came: the roster an agent picks an executor from).
 */
import { MAX_LOG_PAGE } from '../history/room-log-store.ts';
import type { McpTool } from './mcp-tool.ts';
import { roomArg } from './tool-calls.ts';
import { objectSchema } from './tool-schemas.ts';

export const HISTORY_TOOLS = {
  get_room_log: {
    description:
      "Reads a room's log: every change (entry, view, scene, layer, annotation, snapshot, access, replay) as {seq, ts (host ms), by, type, ...the change}, " +
      'oldest first, after `since` (a seq; 0 from the first kept), at most `limit` (default 100). Answers `next_since` to read on and `more`.',
    input: ({ room }) =>
      objectSchema({
        room,
        since: { type: 'integer', minimum: 0, description: 'Only entries after this seq (default 0)' },
        limit: { type: 'integer', minimum: 1, maximum: MAX_LOG_PAGE, description: `At most this many (default 100, at most ${MAX_LOG_PAGE})` },
      }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const since = typeof args.since === 'number' && Number.isSafeInteger(args.since) ? args.since : 0;
      const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? args.limit : 100;
      return { room, ...(await call.ctx.history.store.read(room, since, limit)) };
    },
  },
  who_is_here: {
    description:
      'Lists who is in a room now: each peer with its id, name, kind (page, headset, notebook, agent), user and since when (host ms), in the ' +
      'order they came (the first is the longest connected).',
    input: ({ room }) => objectSchema({ room }),
    call: async (call, args) => {
      const room = roomArg(call, args);
      const peers = await call.ctx.presence.list(room);
      return { room, count: peers.length, peers };
    },
  },
} satisfies Record<string, McpTool>;
