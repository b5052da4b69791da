/**
 * @module route-inputs
 * The request inputs the routes declare: each one's JSON Schema (what fastify validates and
 * /openapi.json shows) beside the catalogued error a value that fails it gets. Nothing is
 * coerced: a query value is a string (a repeated one an array), a body member is what the JSON
 * said. Route files build their `schema` from these pieces; schema-errors.ts finds the wording
 * of a failure here by the part of the request and the input's name.
 */
import { createHostError, type HostError } from '../errors.ts';
import { invalidDeliveryOption } from '../delivery/parse-delivery.ts';
import { describeJsonValue } from '../params/parse-params.ts';
import { MAX_ROOM_ID_LENGTH } from '../events/layer-slots.ts';
import { ROOM_ID_PATTERN } from '../events/room-id.ts';

/** The parts of a request a route schema declares (fastify's names). */
export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** The catalogued error of an input that failed its schema at `keyword`, given the value it had. */
export type InputError = (value: unknown, keyword: string) => HostError;

type Schema = Record<string, unknown>;

const bad = (why: string): HostError => createHostError('SPC_ERR_BAD_REQUEST', why);
const roomError =
  (name: string): InputError =>
  (_value, keyword) =>
    keyword === 'maxLength'
      ? bad(`${name} is longer than ${MAX_ROOM_ID_LENGTH} characters`)
      : keyword === 'pattern'
        ? bad(`${name} holds a control character (CR, LF, tab, NUL ...)`)
        : bad(`${name} must be a string`);
const roomIdError = roomError('room_id');
const sinceError: InputError = (value) => createHostError('SPC_ERR_SINCE_INVALID', String(value));

/** Where a body or query names its room: absent, null or empty means the host's default room. */
export const ROOM_ID: Schema = {
  type: ['string', 'null'],
  maxLength: MAX_ROOM_ID_LENGTH,
  pattern: ROOM_ID_PATTERN,
  description: 'The room (absent or empty: the default room)',
};
/** A room named in the path. */
export const ROOM_ID_PATH: Schema = { type: 'string', maxLength: MAX_ROOM_ID_LENGTH, pattern: ROOM_ID_PATTERN };
/** The path parameters of a room's routes. */
export type RoomParams = { Params: { room_id: string } };
/** A room's routes' path parameters: `room_id`. */
export const ROOM_PARAMS: Schema = { type: 'object', required: ['room_id'], properties: { room_id: ROOM_ID_PATH } };
/** One thing of a room by its id in the path: `room_id` and `name` (of schema `id`). */
export function roomItemParams(name: string, id: Schema): Schema {
  return { type: 'object', required: ['room_id', name], properties: { room_id: ROOM_ID_PATH, [name]: id } };
}
/** The `If-Match` header of a write made against a version (`description` says which version, and its form). */
export function ifMatchHeader(description: string): Schema {
  return { type: 'object', properties: { 'if-match': { type: 'string', description } } };
}
/** A progress seq to resume after: an integer, as text; absent or empty means from the start. */
export const SINCE: Schema = { type: 'string', pattern: '^(\\s*-?\\d+\\s*)?$', description: 'Resume after this seq (an integer)' };
/** The SSE resume header: an integer seq; blank means none (`since` then decides). */
export const LAST_EVENT_ID: Schema = { type: 'string', pattern: '^\\s*(-?\\d+\\s*)?$', description: 'Resume after this seq (wins over since)' };
/** Parameter values by name, in a JSON body. */
export const PARAMS_OBJECT: Schema = { type: 'object', description: 'Parameter values by name (absent: every default)' };
/** Parameter values as JSON text in the query. */
export const PARAMS_QUERY: Schema = { type: 'string', description: 'Parameter values by name, as a JSON object' };
/** The `delivery` member of a POST /data body (its options are read by parse-delivery.ts). */
export const DELIVERY_OBJECT: Schema = { type: ['object', 'null'], description: 'How the result travels (never part of the cache key)' };

/** What an upload or publish may say of a `.npy` volume with time or channels (query text). */
export const VOLUME_FIELD_QUERY: Record<string, Schema> = {
  axes: { type: 'string', description: 'A .npy volume with time or channels: its axes, tczyx, czyx or tzyx (a 5-D array is tczyx)' },
  channels: { type: 'string', description: 'Its channels: a JSON list of {name, color, window}, or comma-separated names' },
  time_step: { type: 'string', description: 'The time between steps, in time_unit' },
  time_unit: { type: 'string', description: 'The unit of time_step (second, millisecond, ...)' },
  vector: { type: 'string', description: 'true: its 3 channels are the x, y, z components of a vector field' },
  unit: { type: 'string', description: 'The length unit of spacing and origin (micrometer, ...)' },
};

/** Path parameters naming one thing by a string id. */
export function idParams(name: string): Schema {
  return { type: 'object', required: [name], properties: { [name]: { type: 'string' } } };
}

/** A JSON body object with these members (an absent body reads as `{}`, json-body.ts). */
export function bodyOf(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** A query with these parameters: the same shape as a body's. */
export const queryOf = bodyOf;

/** The wording of each declared input's failure, by request part and input name ('' is the whole body). */
export const INPUT_ERRORS: Readonly<Record<RequestPart, Readonly<Record<string, InputError>>>> = {
  body: {
    '': () => bad('request body must be a JSON object'),
    function_name: () => bad('function_name (a string) is required'),
    args: () => bad('args must be an array'),
    kwargs: () => bad('kwargs must be a JSON object'),
    room_id: roomIdError,
    params: (value) => createHostError('SPC_ERR_PARAMS_NOT_OBJECT', describeJsonValue(value)),
    delivery: (value) => invalidDeliveryOption('delivery', value, 'a JSON object of delivery options'),
  },
  querystring: {
    room_id: roomIdError,
    room: roomError('room'),
    params: () => bad('params may be given only once'),
    since: sinceError,
    filename: () => bad("filename (the uploaded file's name, e.g. ?filename=scan.stl) is required"),
    since_version: () => bad('since_version must be a whole number from 0: the room version the follower last had'),
  },
  params: { room_id: roomIdError },
  headers: { 'last-event-id': sinceError },
};
