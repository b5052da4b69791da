/**
 * @module wire-types
 * The JSON shapes the host sends and accepts, as the client sees them; the host's views return
 * these same types. Index signatures allow fields only where the host may add more later
 * (metadata, function listing, cache stats entries).
 */

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
  /**
   * Plugins whose serving version is now earlier than the one it took over from (an older
   * release dropped in): layers that pin no version follow it.
   */
  downgraded: { plugin: string; from: string; to: string }[];
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

/** Delivery options of `/data`, as query values (e.g. `{ format: 'glb', compress: 'meshopt' }`). */
export type DeliveryQuery = Partial<Record<'format' | 'compress' | 'max_triangles' | 'dtype' | 'window' | 'max_dim' | 'segment' | 't' | 'c', string | number>>;

