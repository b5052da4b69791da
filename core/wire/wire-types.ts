/**
 * @module wire-types
 * The JSON shapes the host sends and accepts, as the client sees them; the host's views return
 * these same types. Index signatures allow fields only where the host may add more later
 * (metadata, function listing, cache stats entries).
 */
import type { ConversationEntry } from './agent-types.ts';
import type { AnnotationEvent, RoomFailed, RoomScene } from './scene-types.ts';

/** The four typed result kinds of a dynamic specimen. */
export type ResultType = 'mesh' | 'volume' | 'point_cloud' | 'image';

/** One property of a parameter schema (JSON Schema draft 2020-12, the subset the host emits). */
export interface ParameterProperty {
  type?: 'number' | 'integer' | 'string' | 'boolean' | 'array' | 'object';
  enum?: readonly (string | number | boolean | null)[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  description?: string;
  title?: string;
  /** A fixed tuple: the schema of each position (then `items` is false). */
  prefixItems?: readonly ParameterProperty[];
  /** A list: the schema of every item. */
  items?: ParameterProperty | false;
  minItems?: number;
  maxItems?: number;
  /** `color` for a colour written `#rrggbb`. */
  format?: string;
  pattern?: string;
  /** An input parameter: the kind of result it takes (`{"specimen": ...}` or `{"upload": ...}`). */
  'x-vitrine-input'?: 'mesh' | 'volume' | 'point_cloud' | 'image';
  oneOf?: readonly Record<string, unknown>[];
}

/** The parameter schema of a function or dynamic specimen. */
export interface ParameterSchema {
  $schema?: string;
  title?: string;
  description?: string;
  type: 'object';
  properties: Record<string, ParameterProperty>;
  required?: string[];
  additionalProperties?: boolean;
}

/** One entry of `GET /api/specimens/`. */
export interface CatalogEntry {
  id: string;
  display_name: string;
  description: string;
  /** mesh, volume, point_cloud, image, or a free-form kind for static files. */
  type: string;
  tags: string[];
  is_dynamic: boolean;
  /** null for static specimens. */
  function_name: string | null;
  /** A path relative to the host, e.g. `/api/specimens/{id}/thumbnail`. */
  thumbnail_url: string;
  /** True for a segmentation (a labels volume) where the host knows it before computing: static and published ones. */
  labels?: true;
  /** A plugin's specimen: the plugin, its version and what its signature says. */
  plugin?: string;
  version?: string;
  signature?: 'valid' | 'unsigned' | 'untrusted' | 'invalid';
  /** An array published for this room's layers (listed only with `?room=`). */
  room?: string;
}

/** `GET /api/specimens/{id}`: every Specimen field; `schema` is an object for dynamic specimens. */
export interface SpecimenMetadata extends CatalogEntry {
  thumbnail_file?: string | null;
  /** A static specimen's data file name (its extension says its format); null when it has none or the host relays it. */
  data_file?: string | null;
  /** null for static specimens. */
  schema?: ParameterSchema | null;
  /** Longer text: one string, or paragraphs. */
  story?: string | string[] | null;
  [extra: string]: unknown;
}

/** One entry of `GET /api/processing/functions`. */
export interface FunctionInfo {
  name: string;
  schema: ParameterSchema;
  return_type: ResultType;
  [extra: string]: unknown;
}

/** Job status values: `running`, then `done` or `error`. */
export type JobStatus = 'running' | 'done' | 'error';

/** `POST /api/specimens/{id}/start` and `POST /api/processing/functions/{name}/start`. `status` is `done` at once on a room cache hit. */
export interface StartResponse {
  job_id: string;
  status: JobStatus;
}

/** One progress message: `seq` starts at 0 and increases; `ts` is seconds since the epoch. */
export interface ProgressMessage {
  seq: number;
  text: string;
  ts: number;
  /** Completion between 0 and 1, when the function reported one. */
  fraction?: number;
}

/** `GET /api/jobs/{id}/progress`. A cancelled job ends as `error` with `error: "cancelled"`. */
export interface ProgressResponse {
  status: JobStatus;
  messages: ProgressMessage[];
  error: string | null;
}

/** One room's entry in the cache statistics. */
export interface CacheStatsEntry {
  room_id: string;
  function_name: string;
  age_seconds: number;
  access_count: number;
  [extra: string]: unknown;
}

/** `GET /api/processing/cache/stats`. */
export interface CacheStats {
  total_entries: number;
  ttl_seconds: number;
  /** Bytes of every result the host holds (room entries and finished jobs, each counted once). */
  total_bytes: number;
  /** The byte budget (`--cache-max-bytes`); null when the host has none. */
  max_bytes: number | null;
  entries: CacheStatsEntry[];
}

/** `GET /api/specimens/reload`. */
export interface ReloadResponse {
  /** Specimens found on disk. */
  count: number;
  /** Specimens, functions and plugins the host now serves. */
  specimens: number;
  functions: number;
  plugins: number;
  /** What was refused or could not be read, one line each. */
  problems: string[];
  /** On a relay: each connected worker's own reload counts, or `{error}`. */
  workers?: Record<string, Record<string, unknown>>;
}

/** The JSON error body every failing route answers with. */
export interface ErrorBody {
  status_code: number;
  detail: string;
  code?: string;
}

/** The terminal states of a job. */
export type JobEndStatus = 'done' | 'error';

/**
 * The data of the job stream's last event (`done` or `error`, named after `status`): the
 * job's status JSON, as `/progress` would answer it, plus its id.
 */
export interface JobEnd {
  job_id: string;
  status: JobEndStatus;
  /** null when done; the failure (e.g. `cancelled`) when error. */
  error: string | null;
}

/**
 * One event of `GET /api/jobs/{id}/events`: a `progress` event per message (its SSE `id:` is
 * the message's `seq`), then `done` or `error`, after which the host closes the stream.
 */
export type JobEvent = { event: 'progress'; data: ProgressMessage } | { event: JobEndStatus; data: JobEnd };

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
export interface RoomView {
  /** The display window `[low, high]` in data units. */
  window?: [number, number];
  colormap?: string;
  /** 0 (clear) to 1 (opaque). */
  opacity?: number;
  mode?: 'slices' | 'volume' | 'surface' | 'points';
  camera?: RoomCamera;
}

/**
 * One event of `GET /api/rooms/{room_id}/events`: first `state` (the room's entry, or null
 * when it holds none), then `computing` each time a computation for the room starts and
 * `result` each time the room's entry changes, and `view` (after `state` on connect, then on
 * each change) with how the room looks. A reconnecting subscriber gets `state` again. `failed`
 * ends a computation that will not give a result; `scene` carries the room's whole scene (after
 * `view` on connect, then on each change; `computing` and `result` name the `layer` they are
 * for) and `annotation` one change to its marks (scene-types.ts); `snapshot` a snapshot taken of
 * it. A change a known user made carries `by`, the user's name.
 */
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
  next_since: number;
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
  | { event: 'conversation'; data: ConversationEntry };

/** Delivery options of `/data`, as query values (e.g. `{ format: 'glb', compress: 'meshopt' }`). */
export type DeliveryQuery = Partial<Record<'format' | 'compress' | 'max_triangles' | 'dtype' | 'window' | 'max_dim' | 'segment' | 't' | 'c', string | number>>;

