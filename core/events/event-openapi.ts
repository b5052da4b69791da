/**
 * @module event-openapi
 * The OpenAPI description of the Server-Sent Events routes. install-events.ts registers them
 * before the OpenAPI collector exists (app.ts installs events first), so the collected
 * document misses them; openapi.ts adds these by hand. Responses list the events each stream
 * sends and their data shapes (the wire types in core/client/wire-types.ts).
 */

/** An event stream whose events' data follow `events` (name → JSON schema, an `x-` extension). */
function stream(events: Record<string, unknown>): Record<string, unknown> {
  return { 'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events; a comment heartbeat at least every 15 s' }, 'x-events': events } };
}
const ROOM_ENTRY = {
  type: 'object',
  required: ['function_name', 'specimen_id', 'params', 'type'],
  properties: {
    function_name: { type: 'string' },
    specimen_id: { type: ['string', 'null'] },
    params: { type: 'object', description: 'Parameter values with defaults filled' },
    type: { type: 'string' },
  },
};
const PROGRESS = {
  type: 'object',
  required: ['seq', 'text', 'ts'],
  properties: { seq: { type: 'integer' }, text: { type: 'string' }, ts: { type: 'number' }, fraction: { type: 'number' } },
};
const JOB_END = {
  type: 'object',
  required: ['job_id', 'status', 'error'],
  properties: { job_id: { type: 'string' }, status: { enum: ['done', 'error'] }, error: { type: ['string', 'null'] } },
};
const ROOM_ID = { name: 'room_id', in: 'path', required: true, schema: { type: 'string', maxLength: 256 } };
const BUSY = { description: 'Too many open event streams on this host (Retry-After)' };

/** Path → operations of the event routes, in the shape of an OpenAPI 3.1 `paths` object. */
export const EVENT_PATHS: Record<string, Record<string, Record<string, unknown>>> = {
  '/api/events': {
    get: {
      summary: 'Host events: hello, then reload (a plugin was swapped in) and build-error (vitrine dev)',
      operationId: 'host_events',
      responses: { '200': { description: 'An event stream', content: stream({ hello: { type: 'object' }, reload: { type: 'object' }, 'build-error': { type: 'object' } }) }, '503': BUSY },
    },
  },
  '/api/jobs/{id}/events': {
    get: {
      summary: 'One job as Server-Sent Events',
      description:
        'An event `progress` per message (`id:` its seq; data `{seq, text, ts, fraction?}`), then `done` or `error` ' +
        '(data `{job_id, status, error}`) and the stream closes. `Last-Event-ID` (or `since`) resumes after that seq; ' +
        'the header wins when both are given.',
      operationId: 'job_events',
      parameters: [
        { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'since', in: 'query', schema: { type: 'integer' }, description: 'Resume after this seq' },
        { name: 'Last-Event-ID', in: 'header', schema: { type: 'string', pattern: '^-?\\d+$' }, description: 'Resume after this seq' },
      ],
      responses: { '200': { description: 'An event stream', content: stream({ progress: PROGRESS, done: JOB_END, error: JOB_END }) }, '503': BUSY },
    },
  },
  '/api/rooms/{room_id}/events': {
    get: {
      summary: 'One room as Server-Sent Events',
      description:
        'First `state` (the room entry, or null), then `computing` (the entry being computed plus `job_id`, null ' +
        'without a job) each time a computation for the room starts, and `result` (the new entry) each time the ' +
        'room’s entry changes. A reconnecting subscriber gets `state` again.',
      operationId: 'room_events',
      parameters: [ROOM_ID],
      responses: {
        '200': {
          description: 'An event stream',
          content: stream({
            state: { oneOf: [ROOM_ENTRY, { type: 'null' }] },
            computing: { ...ROOM_ENTRY, required: [...ROOM_ENTRY.required, 'job_id'], properties: { ...ROOM_ENTRY.properties, job_id: { type: ['string', 'null'] } } },
            result: ROOM_ENTRY,
          }),
        },
        '503': BUSY,
      },
    },
  },
};
