/**
 * @module room-types
 * The JSON shapes of a room as the host sends them and the client sees them: what it shows (its
 * entry, a computation started), how it looks (its view and camera), who is in it, its log, a
 * replay playing into it, and its events. The host's views return these same types.
 */
import type { ConversationEntry } from './agent-types.ts';
import type { LabelsEvent } from './edit-types.ts';
import type { AnnotationEvent, LayerDisplay, RoomFailed, RoomScene } from './scene-types.ts';

/** What a room shows: the entry its cache holds. */
export interface RoomEntry {
  /** The function computed; null for a static specimen shown in the room. */
  function_name: string | null;
  /** The specimen the entry was computed for; null when unknown (e.g. from /invoke). */
  specimen_id: string | null;
  /** Parameter values with defaults filled. */
  params: Record<string, unknown>;
  /** The result type (mesh, volume, point_cloud, image). */
  type: string;
  /**
   * The entry's result id (the `X-Result-Id` of its /data answer; `/api/results/{id}.zarr/`
   * for a volume). On `state` and `result`; not on `computing`, whose result is not made yet.
   */
  result_id?: string;
  /**
   * The blob of the entry's bytes in their default form (`/api/blobs/{blob_id}`: immutable,
   * cacheable anywhere). On `state` and `result`, with `result_id`.
   */
  blob_id?: string;
}

/** A computation for a room started: what it computes, and its job when a `/start` began it. */
export interface RoomComputing extends RoomEntry {
  job_id: string | null;
}

/** A camera as a room shares it: where it is, what it looks at, which way is up (scene units). */
export interface RoomCamera {
  position: [number, number, number];
  target: [number, number, number];
  up: [number, number, number];
}

/** How a room looks: each setting present once someone set it. */
export interface RoomView extends Pick<LayerDisplay, 'window' | 'colormap' | 'opacity' | 'mode'> {
  camera?: RoomCamera;
}

/** One peer in a room (`GET /api/rooms/{room_id}/presence`, `presence` events). */
export interface RoomPeer {
  id: string;
  /** Its user, or the name it gave when anonymous. */
  name: string;
  kind: 'page' | 'headset' | 'notebook' | 'agent';
  user: string;
  /** When it joined (host ms). */
  since: number;
  /** An agent socket's client id in the room (`WS /ws/agent/{room}`); absent for any other follower. */
  client_id?: number;
  /** In the roster's answer: this agent socket runs the room's headset tools. */
  executor?: boolean;
}

/** A `presence` event: who joined or left (sent to followers that named themselves). */
export interface PresenceChange {
  op: 'join' | 'leave';
  peer: RoomPeer;
}

/** One change of a room as its log answers it (`GET /api/rooms/{room}/log`): seq, when (host ms), by whom, type, its fields. */
export type RoomLogEntry = { seq: number; ts: number; by: string; type: string } & Record<string, unknown>;

/** A page of a room's log: entries after a seq, oldest first, and where to read on (`next_since`, while `more`). */
export interface RoomLogPage {
  entries: RoomLogEntry[];
  /** The `since` that reads on from here (the last entry's seq, or the `since` asked when none). */
  next_since: number;
  /** True when entries after this page are already there. */
  more: boolean;
  /** The room's newest seq (0 when it has none). */
  last_seq: number;
}

/** Where a replay playing into a room is (`GET /api/rooms/{room_id}/replay`, `replay` events). */
export interface ReplayStatus {
  room_id: string;
  from: string;
  state: 'playing' | 'paused' | 'ended';
  speed: number;
  /** Where it is, in the other room's time (host ms). */
  position: number;
  start_ts: number;
  end_ts: number;
  applied: number;
  total: number;
  since: number;
  until: number;
}

/**
 * One event of `GET /api/rooms/{room_id}/events`: first `state` (the room's entry, or null
 * when it holds none), then `computing` each time a computation for the room starts and
 * `result` each time the room's entry changes, and `view` (after `state` on connect, then on
 * each change) with how the room looks. A reconnecting subscriber gets `state` again. `failed`
 * ends a computation that will not give a result; `scene` carries the room's whole scene (after
 * `view` on connect, then on each change; `computing` and `result` name the `layer` they are
 * for) and `annotation` one change to its marks (scene-types.ts); `snapshot` a snapshot taken of
 * it; `labels` one edit of a labels layer (its layer, edit, seq, version and box). A change a
 * known user made carries `by`, the user's name.
 */
export type RoomEvent =
  | { event: 'state'; data: RoomEntry | null }
  | { event: 'computing'; data: RoomComputing & { layer?: string } }
  | { event: 'result'; data: RoomEntry & { layer?: string } }
  | { event: 'failed'; data: RoomFailed }
  | { event: 'view'; data: RoomView | null }
  | { event: 'scene'; data: RoomScene }
  | { event: 'annotation'; data: AnnotationEvent }
  | { event: 'presence'; data: PresenceChange }
  | { event: 'replay'; data: ReplayStatus }
  | { event: 'snapshot'; data: { id: string; url: string; by?: string } }
  | { event: 'conversation'; data: ConversationEntry }
  | { event: 'labels'; data: LabelsEvent };
