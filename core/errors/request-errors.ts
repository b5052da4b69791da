/**
 * @module request-errors
 * The error catalog's codes of one area (core/errors.ts gathers them): what a request may get
 * wrong before anything runs: its shape, its parameters, the delivery it asks for.
 */
import { entry, type CatalogEntry } from './error-entry.ts';

export const REQUEST_ERRORS = {
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
      `${what} would take about ${size} bytes, past the ${limit}-byte limit (--max-delivery-bytes), and nothing was sent: ask for less, ${less}`,
  ),
} as const satisfies Record<string, CatalogEntry>;
