/**
 * @module active-layer-events
 * A room's own computation events as its streams send them in a room with a scene. The room's
 * cache slot is its active layer's (layer-slots.ts gives every other layer a slot of its own,
 * whose events name their layer), so `computing`, `result` and `failed` of the room's slot are
 * that layer's: a stream adds `layer`, the id of the active layer in the last scene it sent, and
 * leaves every other member as it is (a client that knows only the entry reads them unchanged).
 * Inside the host the events stay as published: the scenes tell an entry change from a layer's
 * by the missing `layer` (room-scenes.ts). A room with no active layer sends them without one:
 * the `scene` event that follows names the layer an entry became.
 */
import type { HostEvent } from './event-hub.ts';

/** The events a computation sends; a layer's slot names its layer in each. */
const COMPUTATION_EVENTS = new Set(['computing', 'result', 'failed']);

/** Each event as tagged per active layer, shared by every stream that sends it so (their text is shared too). */
const tagged = new WeakMap<HostEvent, Map<string, HostEvent>>();

/** `event` naming layer `active` when it is a room computation's event that names none; else `event` itself. */
export function withActiveLayer(event: HostEvent, active: string | null): HostEvent {
  if (active === null || !COMPUTATION_EVENTS.has(event.event)) return event;
  const data = event.data;
  if (typeof data !== 'object' || data === null || 'layer' in data) return event;
  let byLayer = tagged.get(event);
  if (!byLayer) tagged.set(event, (byLayer = new Map()));
  let out = byLayer.get(active);
  if (!out) byLayer.set(active, (out = { ...event, data: { ...data, layer: active } }));
  return out;
}
