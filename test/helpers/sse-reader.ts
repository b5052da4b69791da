/**
 * @module sse-reader
 * Test helper: a Server-Sent Events client over fetch that collects events and lets a test
 * wait for the next one matching a predicate.
 */

export interface SseEvent {
  event: string;
  data: unknown;
  id: string | null;
}

export interface SseReader {
  events: SseEvent[];
  /** Resolves with the first event from index `from` on that matches. */
  next(match: (event: SseEvent) => boolean, from?: number, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/** Opens `url` as an event stream and reads it in the background. */
export async function openEvents(url: string): Promise<SseReader> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  if (!res.ok || !res.body) throw new Error(`GET ${url} answered ${res.status}`);
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  void (async () => {
    let buffer = '';
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: ?(.*)$/m.exec(block)?.[1];
          const data = /^data: ?(.*)$/m.exec(block)?.[1];
          if (event) events.push({ event, data: data ? JSON.parse(data) : null, id: /^id: ?(.*)$/m.exec(block)?.[1] ?? null });
          for (const wake of waiters) wake();
        }
      }
    } catch {
      // Closed by the test or the host.
    }
  })();
  return {
    events,
    next(match, from = 0, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events.slice(from))}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => controller.abort(),
  };
}
