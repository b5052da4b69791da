/**
 * @module room-errors
 * The error catalog's codes of one area (core/errors.ts gathers them): what a room's workspace
 * may refuse: published specimens and rooms' entries and views, annotations, scenes and
 * snapshots, a room's history, pinned plugin versions and what a host can keep.
 */
import { entry, type CatalogEntry } from './error-entry.ts';

export const ROOM_ERRORS = {
  // --- published specimens and rooms as workspaces ---
  SPC_ERR_PUBLISH_CONFLICT: entry(
    409,
    (id = '?', origin = '?') =>
      `specimen '${id}' is not a published specimen (it comes from the ${origin}) and cannot be replaced or deleted: publish under another id`,
  ),
  SPC_ERR_PUBLISHED_NOT_FOUND: entry(404, (id = '?') => `no published specimen '${id}'`),
  SPC_ERR_PUBLISH_INVALID: entry(400, (why = '?') => `cannot publish: ${why}`),
  SPC_ERR_PUBLISH_CASE_CLASH: entry(409, (id = '?', other = '?') => `'${id}' differs only by case from the specimen '${other}': publish under another id`),
  SPC_ERR_PUBLISH_TOO_LARGE: entry(
    413,
    (size = '?', limit = '?') => `the published file is ${size} bytes, more than the host keeps (${limit} bytes, --cache-max-bytes)`,
  ),
  SPC_ERR_ROOM_ENTRY_INVALID: entry(400, (why = '?') => `room entry: ${why}`),
  SPC_ERR_MCP_METHOD: entry(405, () => 'the MCP endpoint is stateless: POST JSON-RPC messages to /mcp (no sessions, no server streams)'),
  SPC_ERR_ROOM_VIEW_INVALID: entry(400, (field = '?', why = '?') => `room view '${field}' ${why}`),
  SPC_ERR_ROOM_IMAGE_SIZE: entry(400, (field = '?', value = '?') => `${field} must be a whole number of pixels from 1 to 2048 (default 512), got ${value}`),
  SPC_ERR_ROOM_EMPTY: entry(
    404,
    (room = '?') => `room '${room}' shows nothing yet: put a specimen or a result in front of it first (PUT /api/rooms/{room_id}/entry, or show_in_room)`,
  ),

  // --- annotations ---
  SPC_ERR_ANNOTATION_INVALID: entry(400, (field = '?', why = '?') => `${field} ${why}`),
  SPC_ERR_ANNOTATION_CSV: entry(400, (line = '?', why = '?') => `CSV line ${line}: ${why}`),
  SPC_ERR_ANNOTATION_NOT_FOUND: entry(404, (id = '?', room = '?') => `no annotation '${id}' in room '${room}'`),
  SPC_ERR_ANNOTATION_STALE: entry(
    412,
    (id = '?', expected = '?', current = '?') => `annotation '${id}' is at version ${current}, not ${expected}: someone changed it first; read it again`,
  ),
  SPC_ERR_ANNOTATION_IF_MATCH: entry(400, (got = '?') => `If-Match must be one annotation version in quotes, e.g. "3", got '${got}'`),
  SPC_ERR_ANNOTATIONS_FULL: entry(
    409,
    (room = '?', limit = '?', adding = '?') => `room '${room}' would hold more than its limit of ${limit} annotations with these ${adding}; remove some first`,
  ),
  SPC_ERR_ANNOTATIONS_HOST_FULL: entry(
    507,
    (limit = '?') => `this host keeps at most ${limit} annotations across its rooms (on a Redis service they live in Redis instead); remove some first`,
  ),
  SPC_ERR_PRECOMPUTED_KEY_NOT_FOUND: entry(404, (key = '?') => `'${key}' is not a key of the room's precomputed annotations`),
  // --- scenes and snapshots ---
  SPC_ERR_SCENE_INVALID: entry(400, (path = '?', why = '?') => `${path} ${why}`),
  SPC_ERR_SCENE_FULL: entry(400, (max = '?') => `a scene holds at most ${max} layers: remove one before adding another`),
  SPC_ERR_SCENE_TOO_LARGE: entry(
    400,
    (size = '?', limit = '?') =>
      `the scene would take ${size} bytes of JSON, over the ${limit} a scene may take: shorten its layers' names, params or labels, or use fewer layers`,
  ),
  SPC_ERR_SCENE_VERSION: entry(
    412,
    (given = '?', current = '?') =>
      `the scene changed: If-Match names version ${given}, the scene is at version ${current}; read it again and retry (nothing was changed)`,
  ),
  SPC_ERR_SCENE_CONTENDED: entry(503, (room = '?') => `the scene of room '${room}' is being changed by too many writers at once; retry`),
  SPC_ERR_LAYER_NOT_FOUND: entry(404, (id = '?', room = '?') => `room '${room}' has no layer '${id}'`),
  SPC_ERR_LAYER_ID_TAKEN: entry(409, (id = '?', room = '?') => `room '${room}' already has a layer '${id}': choose another id, or PATCH that layer`),
  // --- edits of a labels layer ---
  SPC_ERR_EDIT_INVALID: entry(400, (field = '?', why = '?') => `edit: ${field} ${why}`),
  SPC_ERR_EDIT_NOT_LABELS: entry(
    409,
    (id = '?', kind = '?') => `layer '${id}' is a ${kind} layer: only a labels layer (a segmentation whose result is computed) takes edits`,
  ),
  SPC_ERR_EDIT_STALE: entry(
    412,
    (given = '?', current = '?') =>
      `the labels changed: If-Match names version ${given}, the layer is at version ${current}; read it again (nothing was changed)`,
  ),
  SPC_ERR_EDIT_NOT_FOUND: entry(404, (seq = '?') => `no edit ${seq} on this layer`),
  SPC_ERR_EDIT_CONFLICT: entry(
    409,
    (seq = '?', later = '?') => `edit ${seq} cannot be undone or redone: later edits still in effect changed what it changed (${later}); undo those first`,
  ),
  SPC_ERR_EDIT_UNDONE: entry(409, (seq = '?', by = '?') => `edit ${seq} is already undone (by edit ${by}): redo it first`),
  SPC_ERR_EDIT_NOT_UNDONE: entry(409, (seq = '?', why = '?') => `edit ${seq} cannot be redone: ${why}`),
  SPC_ERR_EDIT_VERSION_NOT_FOUND: entry(404, (version = '?', current = '?') => `no labels version ${version}: the layer holds versions 0 to ${current}`),
  SPC_ERR_SNAPSHOT_NOT_FOUND: entry(404, (id = '?') => `no snapshot '${id}' (unknown, or past its time-to-live, --snapshot-ttl)`),
  SPC_ERR_SNAPSHOT_LOST: entry(410, (id = '?', why = '?') => `snapshot '${id}' can no longer be shown as it was: ${why}`),
  SPC_ERR_SESSION_INVALID: entry(400, (why = '?') => `not a vitrine session file: ${why}`),
  SPC_ERR_SESSION_MISMATCH: entry(400, (name = '?', why = '?') => `'${name}' of the session file does not match its id: ${why}`),
  SPC_ERR_SESSION_TOO_LARGE: entry(413, (limit = '?') => `the session file is larger than the ${limit}-byte limit`),
  SPC_ERR_SESSION_MEDIA_TYPE: entry(415, (got = '?') => `a session file is sent as application/x-tar (or application/octet-stream), not as a form's '${got}'`),

  // --- a room's history: its log, presence, live poses, replay ---
  SPC_ERR_LOG_QUERY_INVALID: entry(400, (wanted = '?', got = '?') => `limit must be ${wanted}, got '${got}'`),
  SPC_ERR_PRESENCE_INVALID: entry(400, (field = '?', why = '?') => `${field} ${why}`),
  SPC_ERR_REPLAY_INVALID: entry(400, (field = '?', why = '?') => `replay: ${field} ${why}`),
  SPC_ERR_REPLAY_EMPTY: entry(404, (room = '?') => `room '${room}' has no log entries to replay in that range`),
  SPC_ERR_REPLAY_NOT_FOUND: entry(404, (room = '?') => `no replay is playing into room '${room}'`),
  SPC_ERR_LIVE_NOT_WEBSOCKET: entry(426, () => 'live poses are a WebSocket: connect with Upgrade: websocket'),
  SPC_ERR_PLUGIN_VERSION_GONE: entry(
    409,
    (plugin = '?', version = '?') =>
      `plugin '${plugin}' version '${version}' is not kept by this host (it keeps the newest --plugin-versions): ` +
      'pin a kept version, or drop the pin to follow the newest',
  ),
  SPC_ERR_HOST_CANNOT_KEEP: entry(
    507,
    (what = '?', size = '?', kept = '?', limit = '?') =>
      `this host cannot keep ${what} (${size} bytes more): it already keeps ${kept} of the ${limit} bytes it may hold for published specimens, ` +
      'uploads and snapshots; nothing older was dropped for it: delete some, or wait for them to expire',
  ),
} as const satisfies Record<string, CatalogEntry>;
