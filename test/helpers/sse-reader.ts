/**
 * @module sse-reader
 * Test helper for every event stream (the host stream, job and room streams): opens a route over real HTTP with fetch,
 * parses it with the client's SseParser (so the tests read exactly what clients read), and
 * lets a test wait for the next event, or for the host to close the stream.
 */
import { SseParser, type SseMessage } from '../../core/client/sse-parser.ts';

export interface StreamEvent {
  event: string;
  id: string | null;
  data: unknown;
}

export interface StreamReader {
  response: Response;
  events: StreamEvent[];
  /** Resolves with the first event from index `from` on that matches. */
  next(match?: (event: StreamEvent) => boolean, from?: number): Promise<StreamEvent>;
  /** Resolves once the host ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** How long a test waits for an event before failing with what it got. */
const WAIT_MS = 30_000;

/** Opens `url` as an event stream; throws when it does not answer 200 text/event-stream. */
export async function openStream(url: string, headers: Record<string, string> = {}): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`);
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`GET ${url} is not an event stream`);
  const events: StreamEvent[] = [];
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const waker of [...wakers]) waker();
  };
  const body = response.body;
  let done = false;
  const ended = (async () => {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        for (const message of parser.push(decoder.decode(chunk, { stream: true })) as SseMessage[]) {
          events.push({ event: message.event, id: message.id, data: JSON.parse(message.data) });
        }
        wake();
      }
    } catch {
      // Closed by the test.
    }
    done = true;
    wake();
  })();
  return {
    response,
    events,
    ended,
    next(match = () => true, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (found || done) {
            wakers.delete(check);
            clearTimeout(timer);
            if (found) resolve(found);
            else reject(new Error(`the stream ended without a matching event; got ${JSON.stringify(events.slice(from))}`));
          }
        };
        const timer = setTimeout(() => {
          wakers.delete(check);
          reject(new Error(`no matching event within ${WAIT_MS} ms; got ${JSON.stringify(events.slice(from))}`));
        }, WAIT_MS);
        wakers.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}

