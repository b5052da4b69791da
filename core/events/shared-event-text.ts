/**
 * @module shared-event-text
 * An event as the text a stream sends (`event: NAME`, `data: JSON`, a blank line), made once
 * for every stream that sends it, with its length in bytes. A busy room with many streams
 * would otherwise hold one copy of each event per stream: the SSE layer builds each message
 * by concatenation and writing it flattens that into a string of the stream's own, so a
 * stream whose client stopped reading held its own copy of everything it had not sent.
 */
import type { HostEvent } from './event-hub.ts';

export interface EventText {
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
}

const made = new WeakMap<object, EventText>();

/** The event's text, made on the first call for that event object. */
export function sharedEventText(event: HostEvent, data: unknown = event.data): EventText {
  let shared = made.get(event);
  if (!shared) {
    // JSON text has no raw line breaks, so the data fits on one `data:` line.
    const text = `event: ${event.event}\ndata: ${JSON.stringify(data)}\n\n`;
    // Measuring flattens the concatenation once, here, rather than once per stream.
    made.set(event, (shared = { text, bytes: Buffer.byteLength(text) }));
  }
  return shared;
}
