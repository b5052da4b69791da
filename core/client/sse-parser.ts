/**
 * @module sse-parser
 * SseParser: the text/event-stream format (WHATWG HTML, "Server-sent events", parsing an event
 * stream) over chunks of decoded text, for runtimes with no EventSource (Node 20) and for
 * readers of fetch's streaming body. Lines end with CRLF, LF or CR, also when a chunk ends
 * between the CR and the LF; a leading BOM is dropped; comment lines (`:`) are skipped;
 * `data` lines join with `\n`; `id` persists from event to event, as the standard says.
 * `readEventStream` reads the events of one fetch response body with it, decoded as UTF-8 across
 * chunk boundaries (browser-safe: only ReadableStream and TextDecoder).
 *
 * @example
 * const parser = new SseParser();
 * for (const message of parser.push('event: progress\nid: 3\ndata: {"seq":3}\n\n')) console.log(message);
 */

/** One dispatched event. */
export interface SseMessage {
  /** The `event:` field; `message` when the event named none. */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The last event id seen so far (it persists across events), or null before any `id:`. */
  id: string | null;
}

export class SseParser {
  #partial = '';
  #data: string[] = [];
  #event = '';
  #lastId: string | null = null;
  #retry: number | null = null;
  #skipLineFeed = false;
  #started = false;

  /** The last `id:` the stream set (what a reconnect sends as `Last-Event-ID`). */
  get lastEventId(): string | null {
    return this.#lastId;
  }

  /** The reconnection time the stream asked for with `retry:`, in milliseconds, if any. */
  get retry(): number | null {
    return this.#retry;
  }

  /** Feeds the next chunk of text; returns the events it completes, in order. */
  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.#skipLineFeed && text.length > 0) {
      // The previous chunk ended with CR: a LF starting this one belongs to the same line end.
      if (text.charCodeAt(0) === 0x0a) text = text.slice(1);
      this.#skipLineFeed = false;
    }
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      const line = this.#partial + text.slice(start, i);
      this.#partial = '';
      if (c === 0x0d) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === 0x0a) i++;
        } else {
          this.#skipLineFeed = true;
        }
      }
      start = i + 1;
      this.#line(line, out);
    }
    this.#partial += text.slice(start);
    return out;
  }

  #line(line: string, out: SseMessage[]): void {
    if (line === '') {
      this.#dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // a comment (heartbeats are comments)
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data.push(value);
        break;
      case 'id':
        // The standard ignores an id holding NUL (it could not be sent back as a header).
        if (!value.includes('\u0000')) this.#lastId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#retry = Number.parseInt(value, 10);
        break;
      default:
      // Unknown fields are ignored.
    }
  }

  #dispatch(out: SseMessage[]): void {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    // An event with no data line is not dispatched (the standard's rule).
    if (data.length === 0) return;
    out.push({ event: event || 'message', data: data.join('\n'), id: this.#lastId });
  }
}

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
