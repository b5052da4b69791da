/**
 * @module compute-errors
 * The error catalog's codes of one area (core/errors.ts gathers them): what computing may meet:
 * specimens, functions, inputs and uploads, jobs, results by id, federation and event streams.
 */
import { entry, type CatalogEntry } from './error-entry.ts';

export const COMPUTE_ERRORS = {
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
  SPC_ERR_MESH_LEVELS_TOO_LARGE: entry(
    413,
    (segment = '?', triangles = '?', bytes = '?', limit = '?') =>
      `segment ${segment}'s surface has ${triangles} triangles: building its levels of detail would hold about ${bytes}, ` +
      `over the ${limit} this host's memory budget leaves a build (half of --cache-max-bytes)`,
  ),
  SPC_ERR_MESH_LEVELS_FAILED: entry(
    500,
    (segment = '?', why = '?') => `the levels of detail of segment ${segment} could not be built (${why}); asking again answers this until the host restarts`,
  ),

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
} as const satisfies Record<string, CatalogEntry>;
