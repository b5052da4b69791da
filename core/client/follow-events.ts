/**
 * @module follow-events
 * followEvents: the events of one Server-Sent Events route across reconnections, for the job
 * and room followers. A dropped connection, a stream the host closed, a stream quiet for
 * longer than three heartbeats, a network failure or a 5xx (408, 429) reconnects after a
 * backoff (doubling, with jitter, so a restarted host is not hit by every client at once);
 * other HTTP errors end the iteration at once (a 404 for an unknown job stays a 404).
 * Aborting the signal ends it with an AbortError; leaving the loop closes the connection.
 */
import { sleep } from './abortable-sleep.ts';
import { abortError, EventStreamUnavailableError, VitrineHttpError } from './errors.ts';
import { readEventStream, type SseMessage } from './sse-parser.ts';
import type { Transport } from './transport.ts';

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
