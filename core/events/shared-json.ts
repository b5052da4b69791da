/**
 * @module shared-json
 * An event's data serialized once for every stream that sends it: the hub hands the same event
 * object to each subscriber, and a busy room with many streams would otherwise build one JSON
 * string per stream per event (garbage that, at hundreds of events a second, holds far more
 * memory than the streams themselves). The SSE plugin's serializer (install-events.ts) writes
 * a {@link SharedJson} as it is.
 */

/** JSON text already made; the SSE serializer sends it unchanged. */
export class SharedJson {
  constructor(readonly text: string) {}
}

const made = new WeakMap<object, SharedJson>();

/** `data` of `event` as shared JSON, made on the first call for that event object. */
export function sharedJsonOf(event: object, data: unknown): SharedJson {
  let json = made.get(event);
  if (!json) made.set(event, (json = new SharedJson(JSON.stringify(data))));
  return json;
}

/** The SSE plugin's serializer: shared JSON as it is, anything else with JSON.stringify. */
export function serializeEventData(data: unknown): string {
  return data instanceof SharedJson ? data.text : JSON.stringify(data);
}
