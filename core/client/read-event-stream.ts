/**
 * @module read-event-stream
 * The events of one fetch response body (text/event-stream), decoded as UTF-8 across chunk
 * boundaries and parsed with SseParser. Browser-safe: only ReadableStream and TextDecoder.
 */
import { SseParser, type SseMessage } from './sse-parser.ts';

/**
 * Yields each event of `body` until it ends; `onChunk` runs on every chunk received (comments
 * and heartbeats included), so a caller can tell a quiet stream from a dead one.
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>, onChunk: () => void = () => {}): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onChunk();
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    // Stops the download when the caller leaves early; a body already ended ignores it.
    reader.cancel().catch(() => {});
  }
}
