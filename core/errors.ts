/**
 * @module errors
 * The one catalog of host errors: each code with its HTTP status and message template.
 * Route code only throws `createHostError(code, ...args)`; `core/http/error-handler.ts` turns
 * it into `{"status_code", "detail", "code"}`. Codes are grouped by area (a large area in a file
 * of its own beside this one) and documented in core/ERRORS.md (a test keeps the two in step).
 */

import { AGENT_ERRORS } from './agent-errors.ts';
import { entry, type CatalogEntry } from './error-entry.ts';

export const ERRORS = {
  // --- request shape ---
  SPC_ERR_BAD_REQUEST: entry(400, (why = 'bad request') => why),
  SPC_ERR_BODY_INVALID_JSON: entry(400, (why = '') => `request body is not valid JSON${why ? `: ${why}` : ''}`),
  SPC_ERR_BODY_TOO_LARGE: entry(413, (limit = '?') => `request body is larger than the ${limit}-byte limit`),
  SPC_ERR_ROUTE_NOT_FOUND: entry(404, (method = 'GET', url = '/') => `no route ${method} ${url}`),
  SPC_ERR_UNHANDLED: entry(500, () => 'internal server error'),
  SPC_ERR_UNSUPPORTED_MEDIA_TYPE: entry(415, (got = '?') => `request bodies must be JSON (application/json or */*+json), got content type '${got}'`),
  SPC_ERR_HOST_NOT_ALLOWED: entry(403, (host = '?') => `host '${host}' is not allowed (see --allowed-hosts)`),
  SPC_ERR_HOST_MALFORMED: entry(400, (host = '?') => `Host header '${host}' is not a host name or address with an optional port`),
  SPC_ERR_CROSS_SITE_WRITE: entry(
    403,
    (method = '?', origin = '?') => `a ${method} from another origin (${origin}) is refused: only origins listed in --cors-origin may write from a browser`,
  ),
  SPC_ERR_BODY_NULL: entry(400, () => 'request body is null: send a JSON object, or no body at all'),
  SPC_ERR_MALFORMED_REQUEST: entry(400, (why = 'malformed request') => `malformed HTTP request: ${why}`),
  SPC_ERR_HEADERS_TOO_LARGE: entry(431, () => 'request headers are too large'),
  SPC_ERR_URL_TOO_LONG: entry(414, () => 'request URL is too long'),
  SPC_ERR_REQUEST_TIMEOUT: entry(408, (seconds = '?') => `request headers and body did not arrive within ${seconds} s`),
  SPC_ERR_OVERLOADED: entry(503, (why = 'overloaded') => `the host is overloaded (${why}); retry later`),

  // --- parameters ---
  SPC_ERR_PARAMS_NOT_JSON: entry(400, (why = '') => `params is not valid JSON${why ? `: ${why}` : ''}`),
  SPC_ERR_PARAMS_NOT_OBJECT: entry(400, (got = 'value') => `params must be a JSON object, got ${got}`),
  SPC_ERR_PARAMS_TOO_LARGE: entry(400, (limit = '?') => `params is longer than the ${limit}-character limit`),
  SPC_ERR_PARAM_INVALID: entry(400, (detail = 'invalid parameter') => detail),
  SPC_ERR_PARAM_UNKNOWN: entry(400, (name = '?', fn = '?') => `unknown parameter '${name}' for ${fn}`),
  SPC_ERR_PARAM_RESERVED: entry(400, (name = '?', fn = '?') => `parameter name '${name}' is not allowed for ${fn}`),
  SPC_ERR_PARAM_MISSING: entry(400, (name = '?', fn = '?') => `missing required parameter '${name}' for ${fn}`),
  SPC_ERR_ARGS_TOO_MANY: entry(400, (given = '?', fn = '?', max = '?') => `${fn} takes at most ${max} positional arguments, got ${given}`),
  SPC_ERR_ARG_TWICE: entry(400, (name = '?') => `parameter '${name}' given both positionally and by name`),
  SPC_ERR_SINCE_INVALID: entry(400, (got = '?', wanted = 'an integer') => `since must be ${wanted}, got '${got}'`),

  // --- delivery ---
  SPC_ERR_DELIVERY_OPTION_UNKNOWN: entry(400, (name = '?', known = '?') => `unknown delivery option '${name}' (delivery options: ${known})`),
  SPC_ERR_DELIVERY_OPTION_INVALID: entry(400, (name = '?', got = '?', expected = '?') => `delivery option '${name}' is ${got}; expected ${expected}`),
  SPC_ERR_DELIVERY_OPTION_MISFIT: entry(400, (name = '?', why = '?') => `delivery option '${name}' cannot be used here: ${why}`),
  SPC_ERR_DELIVERY_FORMAT_UNAVAILABLE: entry(400, (format = '?', type = '?') => `format '${format}' for ${type} results is not available on this host`),
  SPC_ERR_SEGMENT_NOT_FOUND: entry(404, (id = '?', held = '?') => `segment ${id}: no voxel of the labels volume has this id (${held})`),
  SPC_ERR_DELIVERY_TOO_LARGE: entry(
    413,
    (what = '?', size = '?', limit = '?', less = '?') =>
      `${what} would make a mesh of about ${size} bytes, past the ${limit}-byte limit (--max-delivery-bytes); nothing was built: ask for less, ${less}`,
  ),

  // --- specimens ---
  SPC_ERR_SPECIMEN_NOT_FOUND: entry(404, (id = '?') => `specimen '${id}' not found`),
  SPC_ERR_STATIC_SPECIMEN_START: entry(400, (id = '?') => `specimen '${id}' is static: fetch it with GET /api/specimens/${id}/data`),
  SPC_ERR_SPECIMEN_NO_DATA: entry(404, (id = '?') => `specimen '${id}' has no data file`),
  SPC_ERR_SPECIMEN_FILE_MISSING: entry(404, (id = '?', file = '?') => `data file '${file}' of specimen '${id}' is missing`),
  SPC_ERR_SPECIMEN_FILE_INVALID: entry(500, (id = '?', why = '?') => `data file of specimen '${id}' cannot be served: ${why}`),
  SPC_ERR_THUMBNAIL_INVALID: entry(500, (id = '?', why = '?') => `thumbnail of specimen '${id}' cannot be served: ${why}`),
  SPC_ERR_FUNCTION_UNAVAILABLE: entry(503, (id = '?', fn = '?') => `specimen '${id}' needs function '${fn}', which is not registered`),

  // --- functions ---
  SPC_ERR_FUNCTION_NOT_FOUND: entry(404, (name = '?') => `function '${name}' is not registered`),
  SPC_ERR_FUNCTION_FAILED: entry(500, (name = '?', message = '?') => `function '${name}' failed: ${message}`),
  SPC_ERR_RESULT_INVALID: entry(500, (name = '?', why = '?') => `function '${name}' returned an invalid result: ${why}`),
  SPC_ERR_RESULT_TOO_LARGE: entry(
    413,
    (name = '?', size = '?', limit = '?') =>
      `result of '${name}' is ${size} bytes, over the ${limit}-byte limit for JSON results; fetch it as an envelope from /data`,
  ),
  SPC_ERR_WORKER_CRASHED: entry(500, (name = '?', why = '?') => `worker thread running '${name}' died: ${why}`),
  SPC_ERR_PLUGIN_PROCESS_EXITED: entry(500, (name = '?', why = '?') => `the plugin process running '${name}' exited (${why}); it has been replaced`),
  SPC_ERR_PYTHON_UNAVAILABLE: entry(503, (name = '?', why = '?') => `no Python plugin process can run '${name}' now: ${why}; retry later`),
  SPC_ERR_COMPUTE_TIMEOUT: entry(
    504,
    (name = '?', seconds = '?') =>
      `computing '${name}' took longer than ${seconds} s (--compute-timeout) and was given up; for longer work start a job ` +
      '(POST /api/specimens/{id}/start, or /api/processing/functions/{name}/start for a function)',
  ),

  // --- inputs and uploads ---
  SPC_ERR_INPUT_INVALID: entry(400, (param = '?', why = '?') => `input '${param}' ${why}`),
  SPC_ERR_INPUT_TYPE: entry(400, (param = '?', wanted = '?', got = '?') => `input '${param}' takes a ${wanted}, got a ${got}`),
  SPC_ERR_INPUT_UNKNOWN: entry(400, (param = '?', what = '?') => `input '${param}' names ${what}, which does not exist`),
  SPC_ERR_INPUT_TOO_DEEP: entry(400, (param = '?', max = '?') => `input '${param}' nests inputs deeper than ${max} levels`),
  SPC_ERR_INPUT_CYCLE: entry(400, (param = '?', fn = '?') => `input '${param}' leads back to ${fn} with the same parameters (a cycle)`),
  SPC_ERR_UPLOAD_TOO_LARGE: entry(413, (limit = '?') => `the upload is larger than the ${limit}-byte limit (--max-upload-bytes)`),
  SPC_ERR_UPLOAD_DECODES_TOO_LARGE: entry(
    413,
    (name = '?', size = '?', what = '?', limit = '?') =>
      `'${name}' would decode to ${size} bytes (${what}), past the ${limit}-byte limit (--max-upload-bytes); it was refused before decoding`,
  ),
  SPC_ERR_UPLOAD_FORMAT: entry(415, (name = '?', known = '?') => `cannot read '${name}': uploads must be one of ${known}`),
  SPC_ERR_UPLOAD_INVALID: entry(400, (name = '?', why = '?') => `'${name}' does not parse: ${why}`),
  SPC_ERR_UPLOADS_OFF: entry(404, () => 'uploads are turned off on this host (--uploads off)'),

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
  // --- the headset's agent (agent-errors.ts) ---
  ...AGENT_ERRORS,
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

  // --- jobs ---
  SPC_ERR_JOB_NOT_FOUND: entry(404, (id = '?') => `job '${id}' not found`),
  SPC_ERR_JOB_RUNNING: entry(409, (id = '?') => `Job still running: '${id}'`),
  SPC_ERR_JOB_FAILED: entry(410, (_id = '?', why = '?') => `Job failed: ${why}`),
  SPC_ERR_JOB_CANCELLED: entry(499, () => 'cancelled'),
  SPC_ERR_JOB_ENDED: entry(409, (id = '?', status = '?') => `job '${id}' has already ended (${status}): there is nothing to cancel`),
  SPC_ERR_JOB_RESULT_EVICTED: entry(410, (id = '?') => `the result of job '${id}' was dropped to keep the host within its memory budget; request it again`),
  SPC_ERR_TOO_MANY_JOBS: entry(503, (limit = '?') => `the host runs its limit of ${limit} queued and running jobs; retry later`),
  SPC_ERR_HOST_CLOSING: entry(503, () => 'the host is shutting down'),
  SPC_ERR_NOT_READY: entry(503, (why = '?') => `not ready: ${why}`),
  SPC_ERR_STORAGE_FULL: entry(507, (why = '?') => `the host's data dir has no room to store this write (${why}); nothing of it was kept: free space and retry`),
  SPC_ERR_REDIS_UNAVAILABLE: entry(503, (why = '?') => `the service's Redis cannot serve this request: ${why}; retry later`),
  SPC_ERR_BLOB_STORE_UNAVAILABLE: entry(503, (why = '?') => `the object store holding result bytes cannot serve this request: ${why}; retry later`),
  SPC_ERR_BLOB_LOOKUPS_BUSY: entry(503, (why = '?') => `the host is looking up as many blob ids it does not hold as it may (${why}); retry later`),
  SPC_ERR_NO_COMPUTE_NODE: entry(
    503,
    (fn = '?') => `no live compute node can run function '${fn}'; start a vitrine worker (or a host with --compute) that has its plugin`,
  ),
  SPC_ERR_ADMIN_TOKEN_MISSING: entry(401, () => 'this route needs the admin token: Authorization: Bearer <token>'),
  SPC_ERR_ADMIN_TOKEN_WRONG: entry(403, () => 'the admin token is wrong'),

  // --- results by id (OME-Zarr) ---
  SPC_ERR_RESULT_ID_NOT_FOUND: entry(
    404,
    (id = '?') => `no result with id '${id}' is held here (unknown, or dropped since: request its data again for a new id)`,
  ),
  SPC_ERR_RESULT_NOT_VOLUME: entry(404, (id = '?', type = '?') => `result '${id}' is a ${type}; only volume results are served as OME-Zarr`),
  SPC_ERR_BLOB_NOT_FOUND: entry(404, (id = '?') => `no blob with id '${id}' is held here (unknown, or dropped since: request its data again)`),
  SPC_ERR_RANGE_NOT_SATISFIABLE: entry(416, (range = '?', size = '?') => `range '${range}' is outside the ${size} bytes of this answer`),
  SPC_ERR_ZARR_KEY_NOT_FOUND: entry(404, (key = '?', id = '?') => `'${key}' is not in the OME-Zarr store of result '${id}'`),
  SPC_ERR_NO_MESH_LEVELS: entry(404, (id = '?', why = '?') => `result '${id}' has no levels of detail: ${why}`),
  SPC_ERR_MESH_KEY_NOT_FOUND: entry(404, (key = '?', id = '?') => `'${key}' is not in the multi-resolution meshes of result '${id}'`),

  // --- federation ---
  SPC_ERR_WORKER_DISCONNECTED: entry(502, (id = '?') => `worker '${id}' disconnected`),
  SPC_ERR_WORKER_TIMEOUT: entry(504, (id = '?', what = 'request') => `worker '${id}' did not answer the ${what} in time`),
  SPC_ERR_WORKER_ERROR: entry(502, (id = '?', why = '?') => `worker '${id}' failed: ${why}`),
  SPC_ERR_NOT_RELAY: entry(404, () => 'this host is not a relay (start it with --relay)'),
  SPC_ERR_RELAY_HOST_UNREACHABLE: entry(
    502,
    (id = '?', why = 'its relay host has not shared its address yet') =>
      `the file of relayed specimen '${id}' could not be fetched from its relay host: ${why}`,
  ),

  // --- event streams ---
  SPC_ERR_TOO_MANY_STREAMS: entry(503, (limit = '?') => `the host has its limit of ${limit} open event streams; retry later`),

  // --- people and rooms' access ---
  SPC_ERR_TOKEN_UNKNOWN: entry(401, () => 'the token sent as Authorization: Bearer is not one this host knows (mistyped, or its user was removed)'),
  SPC_ERR_TICKET_SIGN_IN: entry(401, () => 'a ticket stands for a user: send Authorization: Bearer <token> to ask for one'),
  SPC_ERR_TICKET_UNKNOWN: entry(401, () => 'the event stream ticket is unknown, already used or expired: ask POST /api/tickets for a new one'),
  SPC_ERR_PROXY_USER_REFUSED: entry(
    403,
    (header = '?', name = '?') =>
      `the login proxy names the user '${name}' (${header}), a name this host does not accept: user names are letters, digits and . _ @ + - ` +
      '(up to 128, starting with a letter or digit), never admin, anonymous or host',
  ),
  SPC_ERR_ADMIN_USER_NEEDED: entry(403, (name = '?') => `user '${name}' is not an admin; this route needs an admin's token`),
  SPC_ERR_ROOM_SIGN_IN: entry(
    401,
    (room = '?') => `room '${room}' is closed to anonymous writes: send Authorization: Bearer <token> of its owner or an editor`,
  ),
  SPC_ERR_ROOM_WRITE_FORBIDDEN: entry(403, (room = '?', name = '?') => `user '${name}' may not change room '${room}': only its owner and editors may`),
  SPC_ERR_ROOM_NOT_VISIBLE: entry(404, (room = '?') => `no room '${room}' is open to you here`),
  SPC_ERR_ACCESS_SIGN_IN: entry(401, (room = '?') => `setting the access of room '${room}' needs a user: send Authorization: Bearer <token>`),
  SPC_ERR_ACCESS_OWNER_ONLY: entry(403, (room = '?', owner = '?') => `only the owner of room '${room}' ('${owner}') or an admin may change its access`),
} as const satisfies Record<string, CatalogEntry>;

export type HostErrorCode = keyof typeof ERRORS;

/** An error the host expects and reports to clients as is. */
export class HostError extends Error {
  override name = 'HostError';
  readonly code: HostErrorCode;
  readonly statusCode: number;

  /** Extra response headers (e.g. Retry-After on a 503). */
  headers: Record<string, string> = {};

  constructor(code: HostErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.statusCode = ERRORS[code].status;
  }
}

/** Longest part of a client's input echoed in an error detail; longer values are cut with an ellipsis. */
export const MAX_ECHO_LENGTH = 200;

/** `value` cut to {@link MAX_ECHO_LENGTH} characters, with `…` when it was longer. */
export function boundEcho(value: string): string {
  return value.length > MAX_ECHO_LENGTH ? `${value.slice(0, MAX_ECHO_LENGTH)}…` : value;
}

/**
 * Creates the catalogued error `code` with its message template filled by `args` (each bounded
 * by {@link boundEcho}, so no detail repeats a huge input back).
 * @example throw createHostError('SPC_ERR_JOB_NOT_FOUND', jobId)
 */
export function createHostError(code: HostErrorCode, ...args: string[]): HostError {
  return new HostError(code, ERRORS[code].message(...args.map(boundEcho)));
}

/** Same as createHostError, keeping the underlying failure as `cause`. */
export function wrapHostError(cause: unknown, code: HostErrorCode, ...args: string[]): HostError {
  return new HostError(code, ERRORS[code].message(...args.map(boundEcho)), { cause });
}

export function isHostError(error: unknown): error is HostError {
  return error instanceof HostError;
}
