/**
 * @module follow-events
 * followEvents: the events of one Server-Sent Events route across reconnections, for the job
 * and room followers below (followJob, followRoom). A dropped connection, a stream the host
 * closed, a stream quiet for longer than three heartbeats, a network failure or a 5xx (408,
 * 429) reconnects after a backoff (doubling, with jitter, so a restarted host is not hit by
 * every client at once); other HTTP errors end the iteration at once (a 404 for an unknown job
 * stays a 404). Aborting the signal ends it with an AbortError; leaving the loop closes the
 * connection.
 */
import { sleep } from './abortable-sleep.ts';
import { abortError, EventStreamUnavailableError, VitrineHttpError } from './errors.ts';
import { readEventStream, type SseMessage } from './sse-parser.ts';
import type { Transport } from './transport.ts';
import type { RoomEvent, RoomPeer } from '../wire/room-types.ts';
import type { JobEnd, JobEvent, ProgressMessage } from '../wire/wire-types.ts';

/** Options of `followJob` and `followRoom`. */
export interface FollowOptions {
  /** Aborting ends the iteration with an `AbortError` and closes the connection. */
  signal?: AbortSignal;
  /** The first reconnection delay; it doubles per failed attempt. @defaultValue 250 */
  retryDelayMs?: number;
  /** The longest reconnection delay. @defaultValue 5000 */
  maxRetryDelayMs?: number;
  /**
   * Connection attempts in a row that may fail (an error, or a stream that closed with no
   * event) before the iteration throws the last failure. @defaultValue 10
   */
  maxRetries?: number;
  /**
   * A connection that receives nothing (not even the 15 s heartbeat) for this long is taken
   * for dead and replaced. @defaultValue 45000
   */
  idleTimeoutMs?: number;
  /** Called as each connection opens, with its response (the room stream's `X-Peer-Id` says which peer this follower is). */
  onOpen?: (response: Response) => void;
}

/** One events route: its path, and the headers of each (re)connection. */
export interface EventRoute {
  path: string;
  /** Called before every connection (a job follower sends `Last-Event-ID` from here). */
  headers?: () => Record<string, string>;
}

/** True for failures a new connection may cure. */
function retryable(error: unknown): boolean {
  if (error instanceof EventStreamUnavailableError) return false;
  if (error instanceof VitrineHttpError) return error.status >= 500 || error.status === 408 || error.status === 429;
  return true;
}

function backoff(options: FollowOptions, failures: number): number {
  const base = options.retryDelayMs ?? 250;
  const delay = Math.min(options.maxRetryDelayMs ?? 5000, base * 2 ** Math.max(0, failures - 1));
  return delay * (0.5 + Math.random() * 0.5);
}

/** Yields every event of `route`, reconnecting as described above; never ends by itself. */
export async function* followEvents(transport: Transport, route: EventRoute, options: FollowOptions = {}): AsyncGenerator<SseMessage, never, undefined> {
  const { signal } = options;
  const idleMs = options.idleTimeoutMs ?? 45_000;
  const maxRetries = options.maxRetries ?? 10;
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw abortError(signal);
    const connection = new AbortController();
    const onAbort = (): void => connection.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let idle: ReturnType<typeof setTimeout> | undefined;
    const touch = (): void => {
      clearTimeout(idle);
      idle = setTimeout(() => connection.abort(new Error(`no event or heartbeat within ${idleMs} ms`)), idleMs);
    };
    let failure: unknown = null;
    try {
      touch();
      const headers = { accept: 'text/event-stream', ...route.headers?.() };
      const response = await transport.send('GET', route.path, { headers, signal: connection.signal });
      const type = response.headers.get('content-type');
      if (!response.body || !type?.toLowerCase().startsWith('text/event-stream')) {
        throw new EventStreamUnavailableError(`GET ${route.path}`, type);
      }
      options.onOpen?.(response);
      let delivered = false;
      for await (const message of readEventStream(response.body, touch)) {
        delivered = true;
        failures = 0;
        yield message;
      }
      if (!delivered) failure = new Error(`GET ${route.path}: the event stream closed before its first event`);
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      if (!retryable(error)) throw error;
      failure = error;
    } finally {
      clearTimeout(idle);
      signal?.removeEventListener('abort', onAbort);
      connection.abort();
    }
    if (failure !== null && ++failures > maxRetries) throw failure;
    await sleep(backoff(options, failures), signal);
  }
}

/** Options of `followJob`. */
export interface FollowJobOptions extends FollowOptions {
  /** Resume after this seq (the highest one already seen). @defaultValue -1, every message */
  since?: number;
}

/**
 * One job's events (`GET /api/jobs/{id}/events`) as an async iterator: a
 * `progress` event per message, each once and in seq order, then `done` or `error`, after
 * which the iteration ends. A dropped connection is resumed with `Last-Event-ID` (the last
 * seq received), so no message is lost or repeated across reconnections.
 *
 * Yields the job's events until its end event.
 * @throws NotFoundError for an unknown (or swept) job; the last failure once `maxRetries`
 * connections in a row failed; an `AbortError` when `options.signal` aborts.
 * @example
 * for await (const e of client.followJob(jobId, { signal })) {
 *   if (e.event === 'progress') console.log(e.data.seq, e.data.text);
 *   else console.log('ended', e.data.status, e.data.error);
 * }
 */
export async function* followJob(transport: Transport, jobId: string, options: FollowJobOptions = {}): AsyncGenerator<JobEvent, void, undefined> {
  let lastSeq = options.since ?? -1;
  const route = {
    path: `/api/jobs/${encodeURIComponent(jobId)}/events`,
    headers: (): Record<string, string> => (lastSeq >= 0 ? { 'last-event-id': String(lastSeq) } : {}),
  };
  for await (const message of followEvents(transport, route, options)) {
    if (message.event === 'progress') {
      const data = JSON.parse(message.data) as ProgressMessage;
      if (data.seq <= lastSeq) continue;
      lastSeq = data.seq;
      yield { event: 'progress', data };
    } else if (message.event === 'done' || message.event === 'error') {
      yield { event: message.event, data: JSON.parse(message.data) as JobEnd };
      return;
    }
  }
}

/** The events of a room's entry and view: what a follower gets unless it asks for every event. */
const ENTRY_EVENTS = new Set<string>(['state', 'computing', 'result', 'failed', 'view']);
/** Every room event: a scene's, annotations', a snapshot taken, the conversation, labels edits, who comes and goes (to a named follower). */
const ALL_EVENTS = new Set<string>([...ENTRY_EVENTS, 'scene', 'annotation', 'snapshot', 'presence', 'replay', 'conversation', 'labels']);

/** Options of `followRoom`. */
export interface FollowRoomOptions extends FollowOptions {
  /**
   * `entry`: the room's entry and view (`state`, `computing`, `result`, `failed`, `view`, none
   * of them about a scene's other layers; those of the active layer, which is the entry, name
   * it in `layer`), as followers written before scenes expect; `all`:
   * every event, `scene` and `annotation` too, and the layers' `computing`, `result` and
   * `failed` (their `layer` names which).
   * @defaultValue 'entry'
   */
  events?: 'entry' | 'all';
  /** How this follower appears in the room's presence (its name when anonymous, its kind); it then gets `presence` events too. */
  as?: { name?: string; kind?: RoomPeer['kind'] };
}

/**
 * One room's events (`GET /api/rooms/{room_id}/events`) as an async iterator:
 * `state` first (the room's entry, or null) and `view`, then `computing`, `result`, `failed`
 * and `view` as they happen (with `events: 'all'`, also `scene` after `view` and on each
 * change, and `annotation`), until the caller stops. A dropped connection reconnects and yields a fresh `state`, which
 * is all a room subscriber needs to catch up (the stream carries state, not history).
 *
 * Yields the room's events until the caller leaves the loop or aborts.
 * @throws InvalidRequestError for a refused room id; the last failure once `maxRetries`
 * connections in a row failed; an `AbortError` when `options.signal` aborts.
 * @example
 * for await (const e of client.followRoom('lab-1', { signal })) {
 *   if (e.event === 'computing') showSpinner(e.data.job_id);
 *   else if (e.data) show(e.data.function_name, e.data.params); // state or result
 * }
 */
export async function* followRoom(transport: Transport, room: string, options: FollowRoomOptions = {}): AsyncGenerator<RoomEvent, never, undefined> {
  const named = options.as ? new URLSearchParams(Object.entries(options.as).filter(([, v]) => v !== undefined) as [string, string][]).toString() : '';
  const route = { path: `/api/rooms/${encodeURIComponent(room)}/events${named ? `?${named}` : ''}` };
  const all = options.events === 'all';
  // The scene's active layer: its computations are the room's entry changing (they name it).
  let active: string | null = null;
  for await (const message of followEvents(transport, route, options)) {
    // Events a newer host may add are skipped, not passed on untyped; a scene is read for its active layer.
    const wanted = (all ? ALL_EVENTS : ENTRY_EVENTS).has(message.event);
    if (!wanted && message.event !== 'scene') continue;
    const data = JSON.parse(message.data) as { active?: string | null; layer?: unknown } | null;
    if (message.event === 'scene') active = data?.active ?? null;
    // Another layer's own computation is not the room's entry changing.
    if (!wanted || (!all && data?.layer !== undefined && data.layer !== active)) continue;
    yield { event: message.event, data } as RoomEvent;
  }
  throw new Error('unreachable: followEvents never ends by itself');
}
