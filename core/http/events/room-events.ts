/**
 * @module room-events
 * One room as Server-Sent Events (`GET /api/rooms/{room_id}/events`): first
 * `state` (the room's entry or null), `view` (its shared view) and `scene` (its layers), then
 * `computing`, `result`, `failed`, `view`, `scene` and `annotation` (and `presence`, to a
 * follower that named itself) as the ResultSource, the
 * room workspace and the scene store
 * publishes them (the room's own computations naming the active layer, below) on the host
 * EventHub channel `roomChannel(roomId)`, whichever endpoint
 * (`/data`, `/invoke`, `/start`) and, in a Redis service, whichever host caused them.
 * A client more than 1 MiB behind is disconnected rather than buffered for, and what its
 * stream holds until then stays near that bound (bounded-event-writer.ts): the stream carries
 * state, not history, so reconnecting (which sends `state` again) loses nothing. Whoever may no
 * longer read the room has the stream ended by the room's readers (people/room-readers.ts).
 *
 * In a room with a scene, the room's cache slot is its active layer's (layer-slots.ts gives
 * every other layer a slot of its own, whose events name their layer), so `computing`, `result`
 * and `failed` of the room's slot are that layer's: a stream adds `layer`, the id of the active
 * layer in the last scene it sent, and leaves every other member as it is (a client that knows
 * only the entry reads them unchanged). Inside the host the events stay as published: the scenes
 * tell an entry change from a layer's by the missing `layer` (room-scenes.ts). A room with no
 * active layer sends them without one: the `scene` event that follows names the layer an entry
 * became.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { RoomScenes } from '../../scenes/service/room-scenes.ts';
import type { RoomWorkspace } from '../../rooms/service/room-workspace.ts';
import { ROOM_RESYNC, roomChannel } from '../../events/channels.ts';
import type { EventHub, HostEvent } from '../../events/event-hub.ts';
import { BoundedEventWriter } from '../../events/bounded-event-writer.ts';
import { sharedEventText } from '../../events/shared-event-text.ts';
import type { StreamScope } from '../../events/stream-scope.ts';

/** Room events forwarded to subscribers; anything else on the channel stays inside the host. */
const ROOM_EVENTS = new Set(['computing', 'result', 'failed', 'view', 'scene', 'annotation', 'snapshot', 'replay', 'conversation', 'labels']);
/** What a stream that named itself (a member of the room's presence) gets besides. */
const PRESENT_EVENTS = new Set([...ROOM_EVENTS, 'presence']);

/** The events a computation sends; a layer's slot names its layer in each. */
const COMPUTATION_EVENTS = new Set(['computing', 'result', 'failed']);

/** Each event as tagged per active layer, shared by every stream that sends it so (their text is shared too). */
const tagged = new WeakMap<HostEvent, Map<string, HostEvent>>();

/** `event` naming layer `active` when it is a room computation's event that names none; else `event` itself. */
function withActiveLayer(event: HostEvent, active: string | null): HostEvent {
  if (active === null || !COMPUTATION_EVENTS.has(event.event)) return event;
  const data = event.data;
  if (typeof data !== 'object' || data === null || 'layer' in data) return event;
  let byLayer = tagged.get(event);
  if (!byLayer) tagged.set(event, (byLayer = new Map()));
  let out = byLayer.get(active);
  if (!out) byLayer.set(active, (out = { ...event, data: { ...data, layer: active } }));
  return out;
}

/** The version of a `scene` event's scene (0 for anything else). */
const sceneVersion = (event: HostEvent): number => (event.event === 'scene' ? ((event.data as { version?: number } | null)?.version ?? 0) : 0);
/** The active layer of a `scene` event's scene. */
const sceneActive = (event: HostEvent): string | null => (event.data as { active?: string | null } | null)?.active ?? null;

/**
 * Streams room `roomId` on `reply` until the client goes away.
 * @throws what reading the room's state throws (e.g. 503 when Redis is unreachable), before
 * the response becomes an event stream.
 */
export async function streamRoom(
  reply: FastifyReply,
  scope: StreamScope,
  rooms: Pick<RoomWorkspace, 'entry' | 'view'>,
  scenes: Pick<RoomScenes, 'scene'>,
  hub: EventHub,
  roomId: string,
  log: FastifyBaseLogger,
  present = false,
): Promise<void> {
  const forwarded = present ? PRESENT_EVENTS : ROOM_EVENTS;
  let open = false;
  const early: HostEvent[] = [];
  const writer = new BoundedEventWriter(reply, {
    onDrop: () => {
      log.debug({ room: roomId }, 'room event stream dropped: its client stopped reading');
      scope.close();
    },
  });
  scope.add(() => writer.close());
  // The scene this stream sent last: its version, and its active layer (whose computations are the room's own).
  let sent = { version: -1, active: null as string | null };
  // Every stream of the room sends the same text for an event; the writer keeps their order.
  const send = (event: HostEvent): void => {
    if (scope.closed) return;
    if (event.event === 'scene') sent = { version: sceneVersion(event), active: sceneActive(event) };
    writer.send(sharedEventText(withActiveLayer(event, sent.active)));
  };
  // Subscribe before reading the state: an event published meanwhile waits in `early` and
  // follows the state (at worst repeating what the state already shows).
  scope.add(
    hub.subscribe(roomChannel(roomId), (event) => {
      if (event.event === ROOM_RESYNC) {
        reply.sse.close();
        scope.close();
        return;
      }
      if (!forwarded.has(event.event)) return;
      if (open) send(event);
      // Bounded: a room busier than this during one state read is churning, and its next
      // `result` shows the entry anyway.
      else if (early.length < 100) early.push(event);
    }),
  );
  const [entry, view, scene] = await Promise.all([rooms.entry(roomId), rooms.view(roomId), scenes.scene(roomId)]);
  if (scope.closed) return;
  reply.sse.keepAlive();
  send({ event: 'state', data: entry });
  send({ event: 'view', data: view });
  send({ event: 'scene', data: scene });
  // A scene event older than the scene just sent would take a follower back: it is left out.
  for (const event of early.splice(0)) if (event.event !== 'scene' || sceneVersion(event) > sent.version) send(event);
  open = true;
}
