/**
 * @module specimen-record
 * One catalog entry as the host holds it, whatever its source (specimens directory, plugin
 * declaration, code registration, relayed worker). Routes turn it into wire shapes; the
 * `thumbnail` and `data` sources say how bytes are produced without routes knowing where
 * they live.
 */
import type { Readable } from 'node:stream';
import type { LabelFields } from '../results/label-fields.ts';
import type { VolumeFieldsInput } from '../results/volume-fields-input.ts';
import type { PublishedOrigin } from '../wire/provenance-types.ts';
import type { CatalogEntry } from '../wire/wire-types.ts';

/** Bytes produced by a remote or computed source. */
export interface FetchedBody {
  contentType: string;
  /** Byte length when known (sent as Content-Length). */
  length?: number;
  /** File name for Content-Disposition, when the body is a file. */
  fileName?: string;
  body: Readable | Buffer;
}

export type ThumbnailSource =
  | { kind: 'file'; path: string }
  | { kind: 'data-uri'; uri: string }
  | { kind: 'remote'; fetch: (signal?: AbortSignal) => Promise<FetchedBody> }
  | { kind: 'none' };

export type DataSource =
  /** A file streamed as is; `path` is absolute and already confined to its root. */
  | { kind: 'file'; path: string; fileName: string }
  /**
   * A NumPy `.npy` volume served as a volume envelope; spacing/origin (and labels) from its sidecar, and
   * what it says of the volume's time, channels and unit (`described`).
   */
  | { kind: 'npy'; path: string; fileName: string; spacing?: number[]; origin?: number[]; labels?: LabelFields; described?: VolumeFieldsInput }
  /**
   * Bytes fetched from elsewhere (a relayed worker, an image read in place). `origin`, when
   * given, says which bytes a fetch now gives (an image's remote, path and level): a
   * computation that takes them as an input says so in its provenance and its cache key.
   */
  | { kind: 'remote'; fetch: (signal?: AbortSignal) => Promise<FetchedBody>; origin?: () => Record<string, unknown> | null };

export type SpecimenOrigin = 'disk' | 'plugin' | 'code' | 'published' | 'relay';

/** The fields a catalog entry shows as the record holds them. */
type ListedFields = 'id' | 'display_name' | 'description' | 'type' | 'tags' | 'is_dynamic' | 'function_name' | 'signature';

export interface SpecimenRecord extends Pick<CatalogEntry, ListedFields> {
  /**
   * True when specimen.json gave a dynamic specimen no `type`: clients are then shown its
   * function's return type (`type` is only the fallback while the function is missing).
   */
  type_from_function?: boolean;
  /** The thumbnail's file name as shown in metadata (`thumbnail_file`), or null. */
  thumbnail_file: string | null;
  thumbnail: ThumbnailSource;
  story: string | null;
  /** The colour viewers draw its mesh in (`#rrggbb`), when the specimen declares one. */
  color?: string;
  /** Static specimens only. */
  data?: DataSource;
  /** A schema from specimen.json that refines the function's generated schema. */
  schema_override?: Record<string, unknown>;
  origin: SpecimenOrigin;
  /** For relayed specimens: the owning worker. */
  worker_id?: string;
  /** A published array of a room's layer: listed by the catalog only when that room is named. */
  room?: string;
  /** A published specimen: who published it, with what client, when, and what they say made it. */
  published?: PublishedOrigin;
}
